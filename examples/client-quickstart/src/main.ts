import { createMemoryClient } from '@memory-service/client';
import { connectMemoryService } from '@memory-service/example-shared';

const service = await connectMemoryService();
try {
  // Every call is made for one end user; their memories stay theirs (plus shared ones without a userId).
  const client = createMemoryClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, scope: { userId: 'ada' } });

  // 1. Add: a standing rule, a decision and a fact.
  const added = [
    await client.memories.add({ content: 'Write dates as YYYY-MM-DD.', type: 'rule' }),
    await client.memories.add({
      content: 'Deploys go out on Tuesdays after the standup.',
      type: 'decision',
      tags: ['deploy'],
    }),
    await client.memories.add({ content: 'The billing service is written in Go.', type: 'fact', tags: ['billing'] }),
  ];
  console.log(`added ${added.length} memories: ${added.map((result) => result.id).join(', ')}`);

  // 2. Search: ranked memories for a question.
  const found = await client.memories.search({ query: 'when do deploys go out' });
  console.log(`search "when do deploys go out": ${found.count} found`);
  for (const memory of found.memories)
    console.log(`  - [${memory.type}] ${memory.content} (score ${memory.score.toFixed(3)})`);

  // 3. Context: what a model should see before answering, plus the client's verdict on the session.
  const context = await client.context.get({
    query: 'which language is billing written in?',
    turnCount: 3,
    turnBudget: 20,
  });
  console.log(
    `context: ${context.rules.length} rule(s), ${context.memories.length} memory(ies), ${context.skillFiles.length} skill file(s)`,
  );
  for (const rule of context.rules) console.log(`  rule: ${rule.content}`);
  console.log(`  top memory: ${context.memories[0]?.content ?? '(none)'}`);
  console.log(`  compaction required: ${context.session.compactionRequired}`);
} finally {
  await service.close();
}
