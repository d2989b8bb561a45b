import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './cli-io.js';

/** Option declarations, as `node:util` parseArgs takes them. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What a command was given: `help`, its string options by name, and positionals. */
export interface ParsedCommand {
  help: boolean;
  strings: Record<string, string | undefined>;
  booleans: Record<string, boolean>;
  positionals: string[];
}

/**
 * Parses a command's arguments strictly with `node:util` parseArgs (plus `-h/--help`); a mistake becomes a
 * usage error naming the command. Positional counts are only checked when help was not asked for.
 */
export function parseCommandArgs(
  args: readonly string[],
  command: string,
  options: OptionsConfig,
  positionals: { min: number; max: number; name?: string },
): ParsedCommand {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('. ')[0] ?? error.message) : String(error);
    throw new UsageError(message, command);
  }
  const help = parsed.values.help === true;
  if (!help && parsed.positionals.length < positionals.min) {
    throw new UsageError(`missing ${positionals.name ?? 'argument'}`, command);
  }
  if (!help && parsed.positionals.length > positionals.max) {
    throw new UsageError(`unexpected argument '${parsed.positionals[positionals.max]}'`, command);
  }
  const strings: Record<string, string | undefined> = {};
  const booleans: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') strings[name] = value;
    if (typeof value === 'boolean') booleans[name] = value;
  }
  return { help, strings, booleans, positionals: parsed.positionals };
}
