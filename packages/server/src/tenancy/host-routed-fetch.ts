import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/**
 * A `fetch` that reaches a namespace of a libSQL server (`sqld --enable-namespaces`): it connects to the
 * address in the URL and sends `Host: <namespace>.<host>`, the header sqld picks the namespace from.
 * Node's built-in fetch drops a caller's `Host` header, and `<namespace>.127.0.0.1` is not a valid URL host,
 * so the request goes through `node:http`/`node:https`, which send the header as given.
 */
export function namespaceFetch(namespace: string): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    headers.host = `${namespace}.${url.host}`;
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(body.length);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(url, { method: request.method, headers, signal: request.signal }, (incoming) => {
        resolve(toResponse(incoming, request.method));
      });
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  };
}

function toResponse(incoming: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const status = incoming.statusCode ?? 502;
  const bodyless = method === 'HEAD' || status === 204 || status === 304;
  if (bodyless) incoming.resume();
  const body = bodyless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
}
