const JSON_TYPE = 'application/json';
const EVENT_STREAM = 'text/event-stream';
/** The Accept the MCP Streamable HTTP transport requires of a POST, word for word as the SDK checks it. */
export const MCP_POST_ACCEPT = `${JSON_TYPE}, ${EVENT_STREAM}`;

interface MediaRange {
  name: string;
  quality: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').map((range) => {
    const [name = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return { name, quality: quality === undefined ? 1 : Number(quality.slice(2)) || 0 };
  });
}

/** Whether ranges admit a media type: the most specific range naming it (exact, `type/*`, `*\/*`) has q > 0. */
function admits(ranges: readonly MediaRange[], mediaType: string): boolean {
  const specificityOf = (name: string) =>
    name === mediaType ? 3 : name === `${mediaType.split('/')[0]}/*` ? 2 : name === '*/*' ? 1 : 0;
  let best: MediaRange | undefined;
  for (const range of ranges) {
    const specificity = specificityOf(range.name);
    if (specificity > 0 && specificity > (best === undefined ? 0 : specificityOf(best.name))) best = range;
  }
  return best !== undefined && best.quality > 0;
}

/**
 * The MCP request as the SDK's transport should see it. The transport answers 406 to a POST whose Accept does not
 * name both `application/json` and `text/event-stream`; clients that send no Accept (or fetch's default `*\/*`)
 * accept both, so a missing header, or one that admits both through wildcards, is given the exact value. Any other
 * Accept (`text/html`, `application/json` alone) is left as sent, for the transport to refuse as the protocol says.
 */
export function withMcpAccept(request: Request): Request {
  const accept = request.headers.get('accept');
  if (accept === MCP_POST_ACCEPT) return request;
  const ranges = accept === null || accept.trim() === '' ? undefined : mediaRanges(accept);
  if (ranges !== undefined && !(admits(ranges, JSON_TYPE) && admits(ranges, EVENT_STREAM))) return request;
  const headers = new Headers(request.headers);
  headers.set('accept', MCP_POST_ACCEPT);
  return new Request(request, { headers });
}
