import type { EventPicsContext } from './types';

/** The execution's cancel signal (the user stopping the workflow), when the context has one. */
function cancelSignal(ctx: EventPicsContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** `signal`, joined with the execution's cancel signal when there is one. */
export function withCancel(ctx: EventPicsContext, signal: AbortSignal): AbortSignal {
	const cancel = cancelSignal(ctx);
	return cancel ? AbortSignal.any([signal, cancel]) : signal;
}

/**
 * `ctx` for a request that must end on `signal`: n8n's authenticated helper replaces the request's
 * `abortSignal` by the execution's cancel signal, so this context hands it ours instead.
 */
export function callerWith<T extends EventPicsContext>(ctx: T, signal: AbortSignal): T {
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }) as T;
}
