import { isIP } from 'node:net';
import { ApiError } from '../api-error.js';

/** Where an attach URL connects: the server the libSQL client would reach, spoken to over HTTP(S). */
export interface AttachTarget {
  protocol: 'http:' | 'https:';
  /** A lower-case host name, or an IP address (IPv6 without brackets). */
  host: string;
  /** Whether `host` is an IP address (no lookup happens before connecting). */
  isAddress: boolean;
  port: number;
  /**
   * The URL handed to the libSQL client: same host, port and path, always `http:`/`https:` (a `ws:` URL would make
   * the client use a WebSocket, which does not go through the size-capped fetch).
   */
  url: string;
}

// The libSQL client's own URL grammar (@libsql/core `uri.ts`, MIT), copied so the checks read the URL as the
// client that connects does; `test/attach-url-policy.test.ts` compares it with the installed driver.
const URI_RE =
  /^(?<scheme>[A-Za-z][A-Za-z.+-]*):(\/\/(?<authority>[^/?#]*))?(?<path>[^?#]*)(\?(?<query>[^#]*))?(#(?<fragment>.*))?$/su;
const AUTHORITY_RE =
  /^((?<username>[^:]*)(:(?<password>.*))?@)?((?<host>[^:[\]]*)|(\[(?<host_br>[^[\]]*)\]))(:(?<port>[0-9]*))?$/su;

/** Characters an attach URL may hold: no userinfo (`@`), backslash, percent-encoding, fragment, space or non-ASCII. */
const SAFE_CHARACTERS = /^[A-Za-z0-9._~:/[\]?=&-]+$/;
const HOST_NAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;
const SCHEMES = new Set(['libsql', 'http', 'https', 'ws', 'wss']);

function refuse(message: string): never {
  throw new ApiError('INVALID_REQUEST', `attachDbUrl: ${message}`, { field: 'attachDbUrl' });
}

/** The HTTP(S) protocol the client ends up on, given the scheme and the `tls` query parameter, as the driver does. */
function protocolOf(scheme: string, query: string | undefined, port: string | undefined): 'http:' | 'https:' {
  let tls: boolean | undefined;
  for (const pair of (query ?? '').split('&').filter((part) => part !== '')) {
    if (pair === 'tls=0' || pair === 'tls=1') tls = pair === 'tls=1';
    else if (pair.startsWith('authToken=')) refuse('pass credentials in attachDbToken, not in the URL');
    else refuse('the only query parameter allowed is tls=0 or tls=1');
  }
  if (scheme === 'libsql') {
    if (tls === false && port === undefined) refuse('a libsql: URL with tls=0 needs an explicit port');
    return tls === false ? 'http:' : 'https:';
  }
  const secure = scheme === 'https' || scheme === 'wss';
  if (tls !== undefined && tls !== secure) refuse(`tls=${tls ? 1 : 0} contradicts the ${scheme}: scheme`);
  return secure ? 'https:' : 'http:';
}

/**
 * Parses an attach URL as `@libsql/client` will, refusing whatever the client and the WHATWG URL parser could read
 * differently (userinfo, backslashes, percent-encoding, numeric host forms, non-canonical IPv6), schemes other than
 * `libsql:`, `http(s):` and `ws(s):`, and credentials in the URL. Throws 400 INVALID_REQUEST naming `attachDbUrl`.
 */
export function parseAttachUrl(text: string): AttachTarget {
  if (text.includes('@')) refuse('pass credentials in attachDbToken, not in the URL');
  if (!SAFE_CHARACTERS.test(text)) {
    refuse('only letters, digits and . _ ~ : / - [ ] ? = & may appear (no backslash, %, #, space or user info)');
  }
  const uri = URI_RE.exec(text)?.groups;
  if (uri?.scheme === undefined) refuse('not a URL');
  const scheme = uri.scheme.toLowerCase();
  if (!SCHEMES.has(scheme)) refuse('use a libsql:, http(s): or ws(s): URL of a libSQL server');
  const authority = uri.authority === undefined ? undefined : AUTHORITY_RE.exec(uri.authority)?.groups;
  if (authority === undefined) refuse('not a URL of a server (expected scheme://host[:port])');
  const bracketed = authority.host_br !== undefined;
  const host = (authority.host_br ?? authority.host ?? '').toLowerCase();
  const family = isIP(host);
  if (bracketed ? family !== 6 : family !== 4 && !HOST_NAME.test(host)) refuse('not a valid host');
  if (!bracketed && family === 0 && /^(\d+|0x[0-9a-f]*)$/.test(host.slice(host.lastIndexOf('.') + 1))) {
    refuse('a host whose last label is a number must be a dotted IPv4 address');
  }
  const portText = authority.port === '' ? undefined : authority.port;
  const protocol = protocolOf(scheme, uri.query, portText);
  const port = portText === undefined ? (protocol === 'https:' ? 443 : 80) : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) refuse('the port must be 1 to 65535');
  const hostText = bracketed ? `[${host}]` : host;
  let whatwg: URL;
  try {
    whatwg = new URL(`${protocol}//${uri.authority}`);
  } catch {
    refuse('not a URL');
  }
  const whatwgPort = whatwg.port === '' ? (protocol === 'https:' ? 443 : 80) : Number(whatwg.port);
  if (whatwg.hostname !== hostText || whatwgPort !== port) refuse('URL parsers read this host differently');
  return { protocol, host, isAddress: family !== 0, port, url: `${protocol}//${hostText}:${port}${uri.path ?? ''}` };
}
