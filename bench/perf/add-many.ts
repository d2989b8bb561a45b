/** Sends `count` `memories/add` requests, `concurrency` at a time; returns how many were acknowledged (2xx). */
export async function addMany(
  url: string,
  apiKey: string,
  { count, concurrency, body }: { count: number; concurrency: number; body: () => unknown },
): Promise<number> {
  let sent = 0;
  let acknowledged = 0;
  const client = async () => {
    while (sent < count) {
      sent += 1;
      const response = await fetch(`${url}/api/sdk/v1/memories/add`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body()),
        signal: AbortSignal.timeout(120_000),
      });
      await response.arrayBuffer();
      if (response.ok) acknowledged += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return acknowledged;
}
