// @ts-check
'use strict';

/**
 * What .github/workflows/publish.yml must keep, read from its YAML (not from its wording):
 *   - it runs on pushed version tags only (no branches, no other events)
 *   - exactly one step runs `npm publish`, with --provenance and --access public
 *   - that job may ask for an OIDC token (id-token: write) and cannot write to the repository
 *   - earlier in that job, test/tools/release/version-tag.js checks the pushed tag against package.json
 *   - no write permission at the top of the workflow
 * checkPublishWorkflow() returns what is missing; test/tools/release/publish-workflow.test.cts runs it on
 * the file and on broken copies of it.
 */

const YAML = require('yaml');

const VERSION_CHECK =
	/\bnode test\/tools\/release\/version-tag\.js "?(\$GITHUB_REF_NAME|\$\{\{ *github\.ref_name *\}\})"?/;

/**
 * @param {unknown} value
 * @returns {Record<string, any>}
 */
const asObject = (value) => (value && typeof value === 'object' ? /** @type {any} */ (value) : {});

/**
 * @param {unknown} permissions a `permissions:` value
 * @returns {Record<string, string>} scope -> level (write-all / read-all expanded to '*')
 */
function permissionMap(permissions) {
	if (permissions === 'write-all') return { '*': 'write' };
	if (permissions === 'read-all') return { '*': 'read' };
	return asObject(permissions);
}

/**
 * @param {string} text the workflow's YAML
 * @returns {string[]} problems; empty when the workflow keeps every guarded part
 */
function checkPublishWorkflow(text) {
	/** @type {string[]} */
	const problems = [];
	const workflow = asObject(YAML.parse(text));

	// Triggers: push of tags only.
	const on = workflow.on;
	const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on : Object.keys(asObject(on));
	const push = asObject(asObject(on).push);
	const tags = Array.isArray(push.tags) ? push.tags : [];
	if (events.length !== 1 || events[0] !== 'push') {
		problems.push(`trigger: must be "push" of tags only, found: ${events.join(', ') || 'none'}`);
	}
	if (tags.length === 0 || !tags.every((t) => typeof t === 'string' && t.startsWith('v'))) {
		problems.push('trigger: push must name version tags (tags: ["v..."])');
	}
	for (const key of Object.keys(push).filter((k) => k !== 'tags')) {
		problems.push(`trigger: push must filter on tags only, found "${key}"`);
	}

	const top = permissionMap(workflow.permissions);
	if (workflow.permissions === undefined)
		problems.push('permissions: none set at the top (defaults may grant write)');
	for (const [scope, level] of Object.entries(top)) {
		if (level === 'write')
			problems.push(`permissions: the workflow grants ${scope}: write to every job`);
	}

	// The publishing step and its job.
	const jobs = Object.entries(asObject(workflow.jobs));
	/** @type {{ id: string, job: any, step: any, index: number }[]} */
	const publishing = [];
	for (const [id, job] of jobs) {
		const steps = Array.isArray(job?.steps) ? job.steps : [];
		steps.forEach((/** @type {any} */ step, /** @type {number} */ index) => {
			if (/\bnpm publish\b/.test(String(step?.run ?? '')))
				publishing.push({ id, job, step, index });
		});
	}
	if (publishing.length !== 1) {
		problems.push(`publish: expected one step running "npm publish", found ${publishing.length}`);
		return problems;
	}
	const { id, job, step, index } = publishing[0];
	const command = String(step.run);
	if (!/(^|\s)--provenance(\s|$)/.test(command))
		problems.push('publish: "npm publish" without --provenance');
	if (!/(^|\s)--access[ =]public(\s|$)/.test(command))
		problems.push('publish: "npm publish" without --access public');

	const permissions = job.permissions === undefined ? top : permissionMap(job.permissions);
	const level = (/** @type {string} */ scope) => permissions[scope] ?? permissions['*'];
	if (level('id-token') !== 'write')
		problems.push(`permissions: job "${id}" lacks id-token: write`);
	if (level('contents') === 'write') problems.push(`permissions: job "${id}" may write contents`);

	const checkAt = job.steps.findIndex((/** @type {any} */ s) =>
		VERSION_CHECK.test(String(s?.run ?? '')),
	);
	if (checkAt === -1) {
		problems.push(
			`version check: job "${id}" never runs test/tools/release/version-tag.js "$GITHUB_REF_NAME"`,
		);
	} else if (checkAt > index) {
		problems.push(`version check: job "${id}" checks the tag only after publishing`);
	} else if (job.steps[checkAt].if !== undefined || job.steps[checkAt]['continue-on-error']) {
		problems.push('version check: the step may be skipped (if:) or ignored (continue-on-error)');
	}
	return problems;
}

module.exports = { checkPublishWorkflow };
