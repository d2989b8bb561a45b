import { readFileSync } from 'node:fs';
import { DEFAULTS } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { environmentSchema, loadConfig } from '../src/config.js';

/** The README's Configuration table: each row's variables and its default cell, one part per variable. */
function readmeConfiguration(): Map<string, string> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration')),
  );
  const documented = new Map<string, string>();
  for (const line of section.split('\n').filter((row) => row.startsWith('| `'))) {
    const [variables = '', defaults = ''] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    const names = [...variables.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1] ?? '');
    const parts = defaults.split(' / ');
    for (const [index, name] of names.entries())
      documented.set(name, (parts.length === 1 ? parts[0] : parts[index]) ?? '');
  }
  return documented;
}

describe('configuration', () => {
  it('has the documented defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      tenantAutoProvision: true,
      tenantProvisioner: 'file',
      rateLimitPerMinute: 600,
      ipRateLimitPerMinute: 1200,
      embeddingModel: 'local/use-lite-512',
      graphAutopilot: true,
      logLevel: 'info',
    });
    expect(config.embeddingModel).toBe(DEFAULTS.embeddingModel);
    expect(config.flags).toEqual({
      MEMORY_SESSION_ENABLED: true,
      MEMORY_COMPACTION_ENABLED: true,
      MEMORY_CONSOLIDATION_ENABLED: true,
      MEMORY_PROCEDURAL_ENABLED: true,
      MEMORY_FILE_MODE_ENABLED: false,
    });
    expect(config.dataDir.endsWith('.memory-service')).toBe(true);
    expect(config.controlDbUrl).toBe(`file:${config.dataDir}/control.db`);
  });

  it('reads flags and numbers from the environment and refuses bad numbers', () => {
    const config = loadConfig({
      MEMORY_SESSION_ENABLED: 'off',
      MEMORY_FILE_MODE_ENABLED: 'yes',
      MEMORY_PORT: '9000',
      MEMORY_LOG_LEVEL: 'DEBUG',
    });
    expect(config.flags.MEMORY_SESSION_ENABLED).toBe(false);
    expect(config.flags.MEMORY_FILE_MODE_ENABLED).toBe(true);
    expect(config.port).toBe(9000);
    expect(config.logLevel).toBe('debug');
    expect(() => loadConfig({ MEMORY_PORT: 'eighty' })).toThrow(/MEMORY_PORT/);
  });

  it('is documented by the README table: every variable of the schema, with its default', () => {
    const documented = readmeConfiguration();
    expect([...documented.keys()].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
    for (const [name, schema] of Object.entries(environmentSchema.shape)) {
      const fallback: unknown = schema.parse(undefined);
      const cell = documented.get(name) ?? '';
      const literal = typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean';
      // A literal default is quoted in the table; an unset or computed one is described in words.
      if (literal) expect(cell, name).toContain(`\`${String(fallback)}\``);
      else expect(cell.startsWith('`'), name).toBe(false);
    }
  });

  it('keeps a bad embedding setting from stopping the server, and names the variable', () => {
    const config = loadConfig({ MEMORY_EMBEDDING_PRICES: '{"a/b": -1}', MEMORY_PORT: '9000' });
    expect(config.port).toBe(9000);
    expect(config.embeddingPrices).toEqual({});
    expect(config.embeddingConfigurationError).toBe(
      'MEMORY_EMBEDDING_PRICES must be a JSON object of model id -> USD per million tokens',
    );
  });
});
