import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

/** The bare module names a built file imports, following its relative imports (shared chunks). */
function bareImports(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, specifier] of source.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.')) {
      for (const name of bareImports(path.resolve(path.dirname(file), specifier), seen)) names.add(name);
    } else names.add(specifier);
  }
  return names;
}

describe('@memory-service/ai-middleware/format', () => {
  it('exports the same formatter as the main entry, without loading the AI SDK (for browsers and scripts)', async () => {
    const format = await import('@memory-service/ai-middleware/format');
    const main = await import('@memory-service/ai-middleware');
    const context = { rules: [], memories: [], skillFiles: [] };
    expect(format.formatMemoryContext(context, { sessionSummary: 'We met.' })).toBe(
      main.formatMemoryContext(context, { sessionSummary: 'We met.' }),
    );
    const imported = bareImports(path.join(dist, 'format.js'));
    expect([...imported].filter((name) => name === 'ai' || name.startsWith('@ai-sdk/'))).toEqual([]);
  });
});
