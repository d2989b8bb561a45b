import packageJson from '../package.json' with { type: 'json' };

/** The command's name, reported in the JSON report. */
export const TOOL_NAME = 'memory-service-conformance';
/** The kit's version (its package.json, inlined at build time). */
export const TOOL_VERSION: string = packageJson.version;
