import { DEFAULTS } from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

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
});
