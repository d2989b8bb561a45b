import { createServer, type Socket } from 'node:net';

/** A TCP server on 127.0.0.1 that accepts every connection and never answers: a hung memory service. */
export interface SilentServer {
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Accepted connections the client has closed since (an aborted request closes its connection). */
  readonly closedByClient: number;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let closedByClient = 0;
  let closing = false;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined); // read the request, answer nothing
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (!closing) closedByClient += 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get accepted() {
      return accepted;
    },
    get closedByClient() {
      return closedByClient;
    },
    close: async () => {
      closing = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The URL of a port on 127.0.0.1 that was just freed: connecting to it is refused. */
export async function refusedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${address.port}`;
}
