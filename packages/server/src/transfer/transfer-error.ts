/**
 * A file an import refuses (bad JSON, an unknown version, a record failing validation, a count or checksum that does
 * not match): nothing was written. `line` is the 1-based line it names (0 for the file as a whole).
 */
export class TransferError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'TransferError';
  }
}
