import type { ServerConfig } from '../config.js';

/** Host names whose origins may call `/api/mcp` when MEMORY_MCP_ALLOWED_ORIGINS is unset (plus the listen host). */
const LOCAL_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const UNSPECIFIED_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/** Which browser origins may call the MCP endpoint. */
export interface AllowedOrigins {
  any: boolean;
  /** Full origins (`https://app.example.com:8443`), compared exactly. */
  origins: ReadonlySet<string>;
  /** Host names (`app.example.com`, `[::1]`), any scheme and port. */
  hostNames: ReadonlySet<string>;
}

/**
 * Reads MEMORY_MCP_ALLOWED_ORIGINS: full origins, bare host names or `*`. Unset, only the listen host and
 * localhost are allowed, so a page of another site cannot drive a local server through DNS rebinding.
 */
export function allowedOriginsOf(config: Pick<ServerConfig, 'host' | 'mcpAllowedOrigins'>): AllowedOrigins {
  const entries =
    config.mcpAllowedOrigins.length > 0
      ? config.mcpAllowedOrigins
      : [...LOCAL_HOST_NAMES, ...(UNSPECIFIED_HOSTS.has(config.host) ? [] : [config.host])];
  const origins = new Set<string>();
  const hostNames = new Set<string>();
  for (const entry of entries.map((text) => text.trim().toLowerCase())) {
    if (entry.includes('://')) {
      try {
        origins.add(new URL(entry).origin);
      } catch {
        // Not an origin: matches nothing.
      }
    } else if (entry !== '*') {
      hostNames.add(entry.includes(':') && !entry.startsWith('[') ? `[${entry}]` : entry);
    }
  }
  return { any: entries.includes('*'), origins, hostNames };
}

/**
 * Whether a request may reach the MCP endpoint by its `Origin` header (the MCP Streamable HTTP transport requires
 * servers to validate it): no header (a non-browser client) passes; `null` or anything unparsable does not.
 */
export function originAllowed(origin: string | null, allowed: AllowedOrigins): boolean {
  if (origin === null || origin === '' || allowed.any) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === 'null') return false;
  return allowed.origins.has(url.origin) || allowed.hostNames.has(url.hostname);
}
