import { connectMemoryService } from '@memory-service/example-shared';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** The envelope a tool result carries as `structuredContent` (the same as the HTTP API's). */
function envelopeOf<Data>(result: Awaited<ReturnType<Client['callTool']>>): { ok: boolean; data: Data } {
  return result.structuredContent as { ok: boolean; data: Data };
}

const service = await connectMemoryService();
const client = new Client({ name: 'memory-service-mcp-example', version: '1.0.0' });
try {
  // Same Bearer API key as the HTTP API; MCP lives at /api/mcp.
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', service.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${service.apiKey}` } },
  });
  await client.connect(transport);

  const { tools } = await client.listTools();
  console.log(`tools (${tools.length}): ${tools.map((tool) => tool.name).join(', ')}`);

  // Arguments are snake_case; the scope is flat (tenant_id, user_id, project_id).
  const user = { user_id: 'mcp-user' };
  const added = await client.callTool({
    name: 'add_memory',
    arguments: { ...user, content: 'The staging database is refreshed every Monday.', type: 'fact', tags: ['staging'] },
  });
  const addition = envelopeOf<{ id: string; message: string }>(added);
  console.log(`add_memory: ok=${addition.ok}, ${addition.data.message} (id ${addition.data.id})`);

  const found = await client.callTool({ name: 'search_memories', arguments: { ...user, query: 'staging database' } });
  const search = envelopeOf<{ memories: { content: string }[] }>(found);
  console.log(`search_memories: ok=${search.ok}, first: ${search.data.memories[0]?.content ?? '(none)'}`);

  const context = await client.callTool({
    name: 'get_context',
    arguments: { ...user, query: 'when is staging refreshed?' },
  });
  const bundle = envelopeOf<{ memories: unknown[]; rules: unknown[] }>(context).data;
  console.log(`get_context: ${bundle.rules.length} rule(s), ${bundle.memories.length} memory(ies)`);

  const invalid = await client.callTool({ name: 'search_memories', arguments: { ...user, query: '' } });
  console.log(`search_memories with an empty query: isError=${invalid.isError === true}`);
} finally {
  await client.close();
  await service.close();
}
