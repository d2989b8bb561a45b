import { createHash, type Hash } from 'node:crypto';
import {
  TRANSFER_FORMAT,
  TRANSFER_RECORD_KINDS,
  TRANSFER_VERSION,
  type TransferCounts,
  type TransferRecord,
  type TransferTrailer,
} from '@memory-service/contract';
import packageJson from '../../package.json' with { type: 'json' };

/** Zero of every record kind. */
export function emptyCounts(): TransferCounts {
  return Object.fromEntries(TRANSFER_RECORD_KINDS.map((kind) => [kind, 0])) as TransferCounts;
}

/**
 * Turns records into the lines of an export (docs/export-format.md): the header first, then each record, then the
 * trailer with the counts and the SHA-256 of every line before it. Holds nothing but the running hash and counts.
 */
export class ExportWriter {
  private readonly hash: Hash = createHash('sha256');
  private readonly counts = emptyCounts();
  private records = 0;

  /** The header line. */
  header(options: { withVectors: boolean; now: Date }): string {
    return this.line({
      format: TRANSFER_FORMAT,
      version: TRANSFER_VERSION,
      exportedAt: options.now.toISOString(),
      withVectors: options.withVectors,
      server: `@memory-service/server ${packageJson.version}`,
    });
  }

  /** One record's line. */
  record(record: TransferRecord): string {
    this.counts[record.record] += 1;
    this.records += 1;
    return this.line(record);
  }

  /** The trailer line (the last; the writer is done after it). */
  trailer(): string {
    const trailer: TransferTrailer = {
      record: 'end',
      records: this.records,
      counts: { ...this.counts },
      sha256: this.hash.digest('hex'),
    };
    return `${JSON.stringify(trailer)}\n`;
  }

  /** How many records of each kind were written so far. */
  written(): TransferCounts {
    return { ...this.counts };
  }

  private line(value: unknown): string {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text, 'utf8');
    return text;
  }
}
