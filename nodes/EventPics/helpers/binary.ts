import type { IExecuteFunctions } from 'n8n-workflow';

import type { UploadBody } from '../transport/upload';

export interface ResolvedBinary {
	propertyName: string;
	fileName?: string;
	mimeType?: string;
	size: number;
	open: () => Promise<UploadBody>;
}

export type BinaryLookup = { ok: true; binary: ResolvedBinary } | { ok: false; reason: string };

/**
 * Finds an item's binary field and how to read it: streamed from n8n's binary store when it has an
 * id (the normal case since n8n 2.0), from the inline base64 data otherwise (pinned or test data).
 */
export async function resolveBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<BinaryLookup> {
	const item = ctx.getInputData()[itemIndex];
	const binaries = item?.binary ?? {};
	const binary = binaries[propertyName];
	if (!binary) {
		const present = Object.keys(binaries);
		return {
			ok: false,
			reason: present.length
				? `has no binary field "${propertyName}" (it has: ${present.join(', ')})`
				: `has no binary data (expected a binary field "${propertyName}")`,
		};
	}
	if (binary.id) {
		const { id } = binary;
		let metadata: Awaited<ReturnType<typeof ctx.helpers.getBinaryMetadata>>;
		try {
			metadata = await ctx.helpers.getBinaryMetadata(id);
		} catch {
			return {
				ok: false,
				reason: `has a binary field "${propertyName}" whose stored file cannot be found in n8n's binary data (id "${id.slice(0, 200)}"); it may have been deleted or come from another n8n instance`,
			};
		}
		return {
			ok: true,
			binary: {
				propertyName,
				fileName: binary.fileName ?? metadata.fileName,
				mimeType: binary.mimeType || metadata.mimeType,
				size: metadata.fileSize,
				open: async () => await ctx.helpers.getBinaryStream(id),
			},
		};
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	return {
		ok: true,
		binary: {
			propertyName,
			fileName: binary.fileName,
			mimeType: binary.mimeType,
			size: buffer.length,
			open: async () => buffer,
		},
	};
}
