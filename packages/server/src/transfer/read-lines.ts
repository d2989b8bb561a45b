import { TRANSFER_LIMITS } from '@memory-service/contract';
import { TransferError } from './transfer-error.js';

/** One line of a file: its text, its bytes (without the newline) and its 1-based number. */
export interface Line {
  number: number;
  text: string;
  bytes: Buffer;
  /** Whether a newline ended it (the last line of a file may lack one). */
  terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines as they arrive, holding at most one line (capped at `maxLineBytes`) and one chunk:
 * a file of any size is read in bounded memory. A line over the cap is refused with its number.
 */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array>,
  { maxLineBytes = TRANSFER_LIMITS.lineBytes }: { maxLineBytes?: number } = {},
): AsyncGenerator<Line> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const take = (tail: Buffer, terminated: boolean): Line => {
    const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    number += 1;
    if (bytes.length > maxLineBytes) throw new TransferError(number, `the line is longer than ${maxLineBytes} bytes`);
    return { number, text: bytes.toString('utf8'), bytes, terminated };
  };
  for await (const chunk of chunks) {
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let index = buffer.indexOf(NEWLINE); index >= 0; index = buffer.indexOf(NEWLINE)) {
      yield take(buffer.subarray(0, index), true);
      buffer = buffer.subarray(index + 1);
    }
    if (buffer.length > 0) {
      pendingBytes += buffer.length;
      if (pendingBytes > maxLineBytes) {
        throw new TransferError(number + 1, `the line is longer than ${maxLineBytes} bytes`);
      }
      // A copy: the chunk's memory may be reused by the stream.
      pending.push(Buffer.from(buffer));
    }
  }
  if (pendingBytes > 0) yield take(Buffer.alloc(0), false);
}
