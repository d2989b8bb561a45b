import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mcpTools, operations } from '@memory-service/contract';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server.js';

const KEY = `mem_${'c3'.repeat(32)}`;

type Loose = Record<string, any>;
type ListedTool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

let server: RunningServer;
let dataDir: string;
let client: Client;
let tools: Map<string, ListedTool>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'memory-service-mcp-schemas-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    bootstrapApiKey: KEY,
    logLevel: 'silent',
    rateLimitPerMinute: 0,
    ipRateLimitPerMinute: 0,
    // The tools' answers include a rule, written over MCP.
    mcpRuleWrites: true,
  });
  client = new Client({ name: 'memory-service-schema-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
    }),
  );
  // Listing first makes the SDK client check every later result against the tool's advertised output schema.
  tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tools/list is read from the operations table', () => {
  it('lists exactly the tools of the table, with its descriptions and hints', () => {
    expect([...tools.keys()].sort()).toEqual(mcpTools.map((tool) => tool.name).sort());
    for (const tool of mcpTools) {
      const operation = operations[tool.operationId];
      expect(tools.get(tool.name)?.description, tool.name).toBe(tool.description);
      expect(tools.get(tool.name)?.annotations, tool.name).toEqual({
        readOnlyHint: operation.readOnly,
        destructiveHint: operation.destructive,
        openWorldHint: false,
      });
    }
    expect(tools.get('get_rules')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.get('vacuum_memories')?.annotations?.destructiveHint).toBe(true);
    expect(tools.get('add_memory')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });
});

describe('input schemas advertise the required arguments', () => {
  it.each([
    ['add_memory', ['content']],
    ['edit_memory', ['id']],
    ['forget_memory', ['id']],
    ['search_memories', ['query']],
    ['checkpoint_session', ['content', 'session_id']],
    ['end_session', ['session_id']],
    ['snapshot_session', ['session_id']],
    ['upsert_skill_file', ['content', 'path']],
    ['delete_skill_file', ['path']],
    ['get_context', []],
    ['get_rules', []],
    ['list_memories', []],
    ['start_session', []],
    ['vacuum_memories', []],
  ])('%s requires %j', (name, required) => {
    const schema = tools.get(name)?.inputSchema;
    expect([...(schema?.required ?? [])].sort(), name).toEqual(required);
    for (const argument of required) expect(schema?.properties, name).toHaveProperty(argument);
  });

  it('never requires a scope argument or a fixed input', () => {
    for (const tool of tools.values()) {
      for (const argument of ['tenant_id', 'user_id', 'project_id', 'mode'])
        expect(tool.inputSchema.required ?? [], tool.name).not.toContain(argument);
    }
  });
});

describe('output schemas describe the operation data', () => {
  function dataSchema(name: string): Loose {
    const data = (tools.get(name)?.outputSchema as Loose | undefined)?.properties?.data as Loose;
    expect(data, name).toBeDefined();
    // The envelope's data: the operation's data schema on success, null on failure.
    const [schema, empty] = data.anyOf as Loose[];
    expect(empty).toEqual({ type: 'null' });
    return schema as Loose;
  }

  it('names the data fields of each tool', () => {
    expect(dataSchema('add_memory').properties).toHaveProperty('memory');
    expect(dataSchema('add_memory').required).toEqual(expect.arrayContaining(['id', 'memory']));
    expect(dataSchema('get_context').properties).toHaveProperty('trace');
    expect(dataSchema('start_session').properties).toHaveProperty('sessionId');
    expect(dataSchema('list_skill_files').properties).toHaveProperty('skillFiles');
    const envelope = tools.get('add_memory')?.outputSchema as Loose;
    expect(envelope.required).toEqual(['ok', 'data', 'error', 'meta']);
  });

  it('stays lenient: responses may carry fields beyond those the contract names', () => {
    expect(JSON.stringify([...tools.values()].map((tool) => tool.outputSchema))).not.toContain(
      '"additionalProperties":false',
    );
  });

  it("every tool's result passes the client's check against its output schema", async () => {
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
      return (result.structuredContent as Loose).data as Loose;
    };
    const called = new Set<string>();
    const run = async (name: string, args: Record<string, unknown> = {}) => {
      called.add(name);
      return call(name, args);
    };
    const added = await run('add_memory', { content: 'Releases are cut on Tuesdays', type: 'rule', tags: ['ops'] });
    await run('edit_memory', { id: added.id, tags: ['ops', 'release'] });
    await run('search_memories', { query: 'releases' });
    await run('list_memories', {});
    await run('get_memory', { id: added.id });
    const history = await run('get_memory_history', { id: added.id });
    expect(history.versions).toHaveLength(1); // the edit above replaced the tags
    await run('get_context', { query: 'releases', retrieval_strategy: 'hybrid' });
    await run('get_rules', {});
    await run('trace_graph', { query: 'releases' });
    const started = await run('start_session', { title: 'schemas' });
    await run('checkpoint_session', { session_id: started.sessionId, content: 'Cut the release on Tuesday' });
    await run('end_session', { session_id: started.sessionId });
    await run('snapshot_session', { session_id: started.sessionId });
    await run('upsert_skill_file', { path: 'skills/release.md', content: '# Release' });
    await run('list_skill_files', {});
    await run('promote_skill_file', { session_id: started.sessionId, path: 'skills/promoted.md' });
    await run('delete_skill_file', { path: 'skills/release.md' });
    await run('consolidate_memories', { dry_run: true });
    await run('bulk_forget_memories', { filters: { tags: ['nothing-has-this'] }, dry_run: true });
    await run('forget_memory', { id: added.id });
    await run('vacuum_memories', {});
    expect([...called].sort()).toEqual(mcpTools.map((tool) => tool.name).sort());
  });
});
