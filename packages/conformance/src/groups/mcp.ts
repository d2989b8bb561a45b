import { assert, CheckFailure, eventually, expectShape, need, preview } from '../expect.js';
import { MCP_PATH, McpSession, type ToolCallResult } from '../mcp.js';
import {
  AddMemoryShape,
  CheckpointShape,
  ContextShape,
  EditShape,
  ErrorEnvelopeShape,
  ForgetShape,
  ListShape,
  SearchShape,
  SessionStartShape,
  SkillListShape,
  SkillUpsertShape,
  SnapshotDataShape,
  SuccessEnvelopeShape,
} from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { listedIds } from './memories.js';

const MCP = 'What the service does (MCP JSON-RPC at {base_url}/api/mcp); Versioning';
const ENVELOPE = 'Resources and their fields › Response envelope (every endpoint)';

/** The tools an MCP client of this contract calls, each mapped to a route (snake_case arguments, a flat scope). */
export const MCP_TOOLS = [
  'get_context',
  'get_rules',
  'add_memory',
  'edit_memory',
  'forget_memory',
  'search_memories',
  'list_memories',
  'bulk_forget_memories',
  'vacuum_memories',
  'consolidate_memories',
  'start_session',
  'checkpoint_session',
  'end_session',
  'snapshot_session',
  'upsert_skill_file',
  'list_skill_files',
  'delete_skill_file',
  'promote_skill_file',
] as const;

/** The data of a successful tool call (its envelope checked), or a failure naming the tool. */
function dataOf(result: ToolCallResult, tool: string): Record<string, unknown> {
  if (result.envelope === undefined) throw new CheckFailure(`${tool} returned no envelope: ${preview(result.raw)}`);
  if (result.isError || result.envelope.ok !== true)
    throw new CheckFailure(`${tool} failed: ${preview(result.envelope.error ?? result.raw)}`);
  return expectShape(SuccessEnvelopeShape, result.envelope, `the ${tool} envelope`).data;
}

/** MCP over streamable HTTP: the handshake, the tool list, and each route family through its tool. */
export const mcpGroup: CheckGroup = {
  id: 'mcp',
  title: 'MCP tools',
  summary:
    'MCP at /api/mcp: initialize with the API key, 401 without, ping, the tool list, memories/context/search/sessions/skills through their tools (results carry the envelope), the HTTP routes seeing MCP writes, refused arguments.',
  async run(t, env) {
    const { tenantId, userId } = env.namespace;
    const scopeArguments = { tenant_id: tenantId, user_id: userId };
    env.written.memoryScope({ tenantId, userId });

    await t.check(
      'requires-key',
      'an MCP request without Authorization answers HTTP 401',
      `${MCP}; Authentication; Errors (MISSING_API_KEY)`,
      async () => {
        const response = await (env.fetchImplementation ?? fetch)(env.http.baseUrl + MCP_PATH, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'conformance', version: '0' },
            },
          }),
        });
        env.http.requestCount += 1;
        await response.body?.cancel();
        assert(response.status === 401, `answered HTTP ${response.status}`);
      },
    );

    const session = await t.check(
      'initialize',
      'an MCP client connects (initialize) with the API key as Bearer token',
      MCP,
      async () => McpSession.connect(env.http, env.fetchImplementation),
    );
    try {
      await t.check('ping', 'ping answers', MCP, async () => need(session, 'the MCP connection').ping());

      await t.check(
        'tools-list',
        `tools/list holds ${MCP_TOOLS.join(', ')}, each with an object input schema`,
        MCP,
        async () => {
          const tools = await need(session, 'the MCP connection').listTools();
          const names = new Set(tools.map((tool) => tool.name));
          const missing = MCP_TOOLS.filter((name) => !names.has(name));
          assert(missing.length === 0, `missing tools: ${missing.join(', ')}`);
          const loose = tools.filter((tool) => tool.inputSchema?.type !== 'object').map((tool) => tool.name);
          assert(loose.length === 0, `tools without an object input schema: ${loose.join(', ')}`);
        },
      );

      const word = marker('mcpx');
      const added = await t.check(
        'add-memory',
        'add_memory stores a memory; the result carries the add envelope (id, message, memory, embeddingModel, embeddingModelSource)',
        `${MCP}; ${ENVELOPE}; Endpoints › POST /memories/add`,
        async () => {
          const result = await need(session, 'the MCP connection').callTool('add_memory', {
            content: `The ${word} pipeline ships nightly`,
            type: 'note',
            tags: [word],
            ...scopeArguments,
          });
          return expectShape(AddMemoryShape, dataOf(result, 'add_memory'), 'add data').id;
        },
      );

      await t.check(
        'http-sees-mcp',
        'a memory added over MCP is listed by POST memories/list (one store, two transports)',
        `${MCP}; Endpoints › POST /memories/list`,
        async () => {
          const id = need(added, 'add_memory');
          assert(
            (await listedIds(env, { scope: { tenantId, userId } })).includes(id),
            'HTTP memories/list does not list it',
          );
        },
      );

      await t.check(
        'search-memories',
        'search_memories finds it',
        `${MCP}; Endpoints › POST /memories/search`,
        async () => {
          const id = need(added, 'add_memory');
          await eventually(async () => {
            const result = await need(session, 'the MCP connection').callTool('search_memories', {
              query: `${word} pipeline`,
              ...scopeArguments,
            });
            const data = expectShape(SearchShape, dataOf(result, 'search_memories'), 'search data');
            assert(
              data.memories.some((memory) => memory.id === id),
              'search_memories does not find it',
            );
          });
        },
      );

      await t.check(
        'get-context',
        'get_context answers the context bundle',
        `${MCP}; Endpoints › POST /context/get`,
        async () => {
          need(added, 'add_memory');
          const result = await need(session, 'the MCP connection').callTool('get_context', {
            query: word,
            ...scopeArguments,
          });
          expectShape(ContextShape, dataOf(result, 'get_context'), 'context data');
        },
      );

      await t.check(
        'list-edit-forget',
        'list_memories, edit_memory and forget_memory work on it',
        `${MCP}; Endpoints › POST /memories/list, /edit, /forget`,
        async () => {
          const id = need(added, 'add_memory');
          const mcp = need(session, 'the MCP connection');
          const listed = expectShape(
            ListShape,
            dataOf(await mcp.callTool('list_memories', { limit: 100, ...scopeArguments }), 'list_memories'),
            'list data',
          );
          assert(
            listed.memories.some((memory) => memory.id === id),
            'list_memories does not list it',
          );
          expectShape(
            EditShape,
            dataOf(
              await mcp.callTool('edit_memory', {
                id,
                content: `The ${word} pipeline ships hourly`,
                ...scopeArguments,
              }),
              'edit_memory',
            ),
            'edit data',
          );
          expectShape(
            ForgetShape,
            dataOf(await mcp.callTool('forget_memory', { id, ...scopeArguments }), 'forget_memory'),
            'forget data',
          );
          assert(
            !(await listedIds(env, { scope: { tenantId, userId } })).includes(id),
            'the memory forgotten over MCP is still listed',
          );
        },
      );

      await t.check(
        'sessions',
        'start_session, checkpoint_session, end_session and snapshot_session run a session',
        `${MCP}; Endpoints › sessions`,
        async () => {
          const mcp = need(session, 'the MCP connection');
          const started = expectShape(
            SessionStartShape,
            dataOf(
              await mcp.callTool('start_session', { title: 'Conformance over MCP', ...scopeArguments }),
              'start_session',
            ),
            'start data',
          );
          env.written.session({ tenantId, userId }, started.sessionId);
          const sessionArguments = { session_id: started.sessionId, ...scopeArguments };
          const checkpoint = await mcp.callTool('checkpoint_session', {
            ...sessionArguments,
            content: 'A turn over MCP',
            role: 'assistant',
            kind: 'summary',
          });
          expectShape(CheckpointShape, dataOf(checkpoint, 'checkpoint_session'), 'checkpoint data');
          dataOf(await mcp.callTool('end_session', { ...sessionArguments, status: 'closed' }), 'end_session');
          expectShape(
            SnapshotDataShape,
            dataOf(await mcp.callTool('snapshot_session', sessionArguments), 'snapshot_session'),
            'snapshot data',
          );
        },
      );

      await t.check(
        'skill-files',
        'upsert_skill_file, list_skill_files and delete_skill_file manage a skill file',
        `${MCP}; Endpoints › skills/files`,
        async () => {
          const mcp = need(session, 'the MCP connection');
          const path = `conformance/${word}.md`;
          env.written.skillFile({ tenantId, userId }, path);
          const upserted = await mcp.callTool('upsert_skill_file', { path, content: '# Over MCP', ...scopeArguments });
          expectShape(SkillUpsertShape, dataOf(upserted, 'upsert_skill_file'), 'upsert data');
          const listed = expectShape(
            SkillListShape,
            dataOf(await mcp.callTool('list_skill_files', scopeArguments), 'list_skill_files'),
            'list data',
          );
          assert(JSON.stringify(listed.skillFiles).includes(path), 'list_skill_files does not list it');
          dataOf(await mcp.callTool('delete_skill_file', { path, ...scopeArguments }), 'delete_skill_file');
        },
      );

      await t.check(
        'invalid-arguments',
        'a tool call with invalid arguments is an error result (an error envelope when one is sent)',
        `${MCP}; Errors`,
        async () => {
          const result = await need(session, 'the MCP connection').callTool('add_memory', {
            content: '',
            ...scopeArguments,
          });
          assert(
            result.isError || result.envelope?.ok === false,
            `add_memory with empty content succeeded: ${preview(result.envelope)}`,
          );
          if (result.envelope !== undefined) expectShape(ErrorEnvelopeShape, result.envelope, 'the error envelope');
        },
      );

      await t.check('unknown-tool', 'calling an unknown tool is an error', MCP, async () => {
        const result = await need(session, 'the MCP connection').callTool('no_such_tool_conformance', {});
        assert(result.isError, `an unknown tool answered ${preview(result.raw)}`);
      });
    } finally {
      await session?.close();
    }
  },
};
