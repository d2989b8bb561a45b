import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable, Transform } from 'node:stream';
import { type AttachPolicy, AttachRefusal } from './attach-policy.js';
import type { AttachTarget } from './attach-url.js';

/** How an attached database's fetch is bounded. */
export interface AttachFetchOptions {
  /** Bytes one response may carry; past it the connection is cut and the read fails. */
  maxResponseBytes: number;
  /** Aborts every request of this fetch (the attach check's total time). */
  signal?: AbortSignal;
}

/**
 * The `fetch` an attached database is reached with: it connects only to the checked target, to an address the
 * policy allows (resolved by the policy's lookup, so the address checked is the address connected to), follows no
 * redirect, decompresses nothing, and cuts a response off past `maxResponseBytes`. Built on `node:http` because
 * Node's fetch takes no custom lookup and would follow redirects and inflate bodies.
 */
export function attachFetch(target: AttachTarget, policy: AttachPolicy, options: AttachFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol !== target.protocol || host !== target.host || port !== target.port) {
      throw new AttachRefusal('ATTACH_ADDRESS_REFUSED');
    }
    // The name's rules on every request (the policy may have changed since the attach); a literal address is never
    // looked up, so it is checked here too.
    if (policy.refusesName(target) || (target.isAddress && !(await policy.allows(target, target.host)))) {
      throw new AttachRefusal('ATTACH_ADDRESS_REFUSED');
    }
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(body.length);
    const signal = options.signal === undefined ? request.signal : AbortSignal.any([request.signal, options.signal]);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(
        {
          protocol: target.protocol,
          hostname: target.host,
          port: target.port,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers,
          signal,
          lookup: policy.lookup(target),
        },
        (incoming) => {
          const declared = Number(incoming.headers['content-length'] ?? 0);
          if (declared > options.maxResponseBytes) {
            incoming.destroy();
            reject(new AttachRefusal('ATTACH_RESPONSE_TOO_LARGE'));
            return;
          }
          resolve(cappedResponse(incoming, request.method, options.maxResponseBytes));
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  };
}

/** A web Response over a node response whose body fails (and whose socket is destroyed) past `maxBytes`. */
function cappedResponse(incoming: IncomingMessage, method: string, maxBytes: number): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const status = incoming.statusCode ?? 502;
  if (method === 'HEAD' || status === 204 || status === 304) {
    incoming.resume();
    return new Response(null, { status, headers });
  }
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received <= maxBytes) return done(null, chunk);
      incoming.destroy();
      done(new AttachRefusal('ATTACH_RESPONSE_TOO_LARGE'));
    },
  });
  incoming.once('error', (error) => counter.destroy(error));
  incoming.pipe(counter);
  return new Response(Readable.toWeb(counter) as ReadableStream<Uint8Array>, {
    status: status < 200 || status > 599 ? 502 : status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
}
