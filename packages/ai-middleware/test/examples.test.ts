import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Runs an example exactly as its README says (`pnpm --filter … start`), with no memory service and no model key
 * configured, so it starts its own server and (for the chat) uses the scripted model. The examples import the
 * built packages: `pnpm test` builds them first.
 */
async function runExample(name: string): Promise<string> {
  const { MEMORY_BASE_URL, MEMORY_API_KEY, OPENAI_API_KEY, ...environment } = process.env;
  const { stdout } = await run('pnpm', ['--silent', '--filter', `@memory-service/example-${name}`, 'start'], {
    cwd: repositoryRoot,
    env: { ...environment, MEMORY_LOG_LEVEL: 'warn' },
    timeout: 90_000,
  });
  return stdout;
}

describe('examples (the ones that need no key)', () => {
  it('client-quickstart adds, searches and gets context', { timeout: 120_000 }, async () => {
    const output = await runExample('client-quickstart');
    expect(output).toContain('[memory] MEMORY_BASE_URL is unset: started a reference server at http://127.0.0.1:');
    expect(output).toMatch(/added 3 memories: [0-9a-f]+, [0-9a-f]+, [0-9a-f]+/);
    expect(output).toContain('  - [decision] Deploys go out on Tuesdays after the standup.');
    expect(output).toContain('context: 1 rule(s)');
    expect(output).toContain('  top memory: The billing service is written in Go.');
  });

  it('ai-sdk-chat captures a preference with no tool call and recalls it, and saves and recalls with a tool', {
    timeout: 120_000,
  }, async () => {
    const output = await runExample('ai-sdk-chat');
    expect(output).toContain('[model] a scripted mock model');
    expect(output).toMatch(/\[session\] started [0-9a-f-]{36}/);
    // The preference turn: a plain answer, and capture's extraction stores the preference.
    expect(output).toMatch(
      /you> I prefer my coffee black, no sugar\.\n(\[session\] started \S+\n)?assistant> Good to know!\n\[capture\] stored: The user prefers their coffee black, no sugar\.\n/,
    );
    expect(output).toContain(
      'assistant> [tool addMemory {"content":"Our deploys go out on Tuesdays after the standup."',
    );
    expect(output).toContain('[capture] 1 already remembered, not stored again');
    // Later turns answer from the memory the middleware injected.
    expect(output).toContain(
      'you> How do I take my coffee?\nassistant> From memory: The user prefers their coffee black, no sugar.\n',
    );
    expect(output).toContain('assistant> From memory: Our deploys go out on Tuesdays after the standup.');
    expect(output).toContain("assistant> You're welcome!");
    expect(output.match(/\[capture\] stored: /g)).toHaveLength(1);
  });

  it('mcp-client lists tools and calls them over /api/mcp', { timeout: 120_000 }, async () => {
    const output = await runExample('mcp-client');
    expect(output).toMatch(/tools \(\d+\): get_context, .*add_memory/);
    expect(output).toMatch(/add_memory: ok=true, .* \(id [0-9a-f]+\)/);
    expect(output).toContain('search_memories: ok=true, first: The staging database is refreshed every Monday.');
    expect(output).toContain('search_memories with an empty query: isError=true');
  });

  it('multi-tenant shows the two tenants isolated', { timeout: 120_000 }, async () => {
    const output = await runExample('multi-tenant');
    expect(output).toContain('  acme   -> The fiscal year starts in April.');
    expect(output).toContain('  globex -> The fiscal year starts in January.');
    expect(output).not.toContain('FAIL');
    expect(output.trim().endsWith('isolation holds')).toBe(true);
  });
});
