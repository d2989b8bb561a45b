export {
  type FormatOptions,
  formatGroupHeading,
  formatIntroduction,
  formatReport,
  formatResult,
  formatSummary,
} from './format.js';
export { type CheckGroup, checkGroups } from './groups/index.js';
export { MCP_TOOLS } from './groups/mcp.js';
export type { CheckResult, CheckStatus, ConformanceReport } from './report.js';
export { type ConformanceOptions, GROUP_IDS, runConformance } from './run-conformance.js';
export { TOOL_NAME, TOOL_VERSION } from './version.js';
