/** The contract version: a date string reported in `meta.version` and in `GET /health` `schemaVersion`. */
export const CONTRACT_VERSION = '2026-02-11';

/** The path prefix every route of the contract lives under. */
export const API_PREFIX = '/api/sdk/v1';

/** The path of the MCP JSON-RPC transport. */
export const MCP_PATH = '/api/mcp';

/** The service name reported by `GET /health`. */
export const SERVICE_NAME = 'memory-service';
