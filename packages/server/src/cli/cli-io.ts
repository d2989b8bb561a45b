import { redact } from '../logger.js';

/** Exit codes of the `memory-service` command. */
export const EXIT_CODES = { ok: 0, failure: 1, usage: 2 } as const;

/** Somewhere text goes (a process stream, or a buffer in tests). */
export interface TextSink {
  write(text: string): unknown;
}

/** Everything the command touches outside itself, so tests can run it in-process. */
export interface CliIo {
  /** The environment the configuration is read from. */
  env: Record<string, string | undefined>;
  stdout: TextSink;
  stderr: TextSink;
  /** Resolves with a signal name when the running server should stop (SIGINT/SIGTERM by default). */
  waitForShutdown: () => Promise<string>;
  now: () => Date;
}

/** A mistake in how the command was called: reported with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  /** The command whose help the hint points at (`keys create`), or empty for the top level. */
  readonly command: string;

  constructor(message: string, command = '') {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** A failure whose message is written for the user: reported as is, exit code 1. */
export class CliFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFailure';
  }
}

/** The default process I/O: real streams, the process environment, SIGINT/SIGTERM. */
export function processIo(): CliIo {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    waitForShutdown: () =>
      new Promise((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
    now: () => new Date(),
  };
}

/**
 * One line about an error, safe to print: no stack, and secrets redacted; the Node error codes people hit at
 * start get a plain explanation.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof CliFailure) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const address = error as { address?: unknown; port?: unknown } | null;
  if (code === 'EADDRINUSE') {
    return `the address ${String(address?.address)}:${String(address?.port)} is already in use (set MEMORY_HOST or MEMORY_PORT)`;
  }
  if (code === 'EACCES' && address?.port !== undefined) {
    return `no permission to listen on port ${String(address.port)} (choose another MEMORY_PORT)`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return redact(message.split('\n')[0] ?? '').slice(0, 500);
}
