/** Log levels, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
/** Log levels, most verbose first; `silent` logs nothing. */
export type LogLevel = (typeof LOG_LEVELS)[number];

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Structured JSON logger. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const SECRET_PATTERNS: readonly RegExp[] = [
  /mem_[A-Za-z0-9]{8,}/g,
  /Bearer\s+[^\s"']+/gi,
  /(authToken|attachDbToken|token|secret|password)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
];

/** Removes API keys, bearer tokens and token-like assignments from a string. */
export function redact(text: string): string {
  let result = text;
  for (const pattern of SECRET_PATTERNS) {
    result = result.replace(pattern, (match, name?: string, separator?: string) =>
      name !== undefined && separator !== undefined && !match.startsWith('mem_') && !/^bearer/i.test(match)
        ? `${name}${separator}[redacted]`
        : match.startsWith('mem_')
          ? 'mem_[redacted]'
          : 'Bearer [redacted]',
    );
  }
  return result;
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) =>
        /authorization|token|secret|password|apikey/i.test(key) ? [key, '[redacted]'] : [key, redactValue(inner)],
      ),
    );
  }
  return value;
}

/** A logger writing one JSON line per entry, secrets redacted. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = ORDER[level];
  const log = (entryLevel: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[entryLevel] < threshold) return;
    const entry = {
      level: entryLevel,
      time: new Date().toISOString(),
      msg: redact(message),
      ...(redactValue(fields ?? {}) as object),
    };
    write(`${JSON.stringify(entry)}\n`);
  };
  return {
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
  };
}
