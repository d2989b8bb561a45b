import { createMemoryManagement } from '@memory-service/ai-middleware';
import { createMemoryClient, NotFoundError } from '@memory-service/client';
import { connectMemoryService } from '@memory-service/example-shared';

const service = await connectMemoryService();
const failures: string[] = [];
function check(claim: string, holds: boolean): void {
  console.log(`  ${holds ? 'ok  ' : 'FAIL'} ${claim}`);
  if (!holds) failures.push(claim);
}

try {
  // One API key, two tenants: `scope.tenantId` picks the tenant's own database (created on first use).
  const connection = { baseUrl: service.baseUrl, apiKey: service.apiKey };
  const acme = createMemoryClient({ ...connection, scope: { tenantId: 'acme' } });
  const globex = createMemoryClient({ ...connection, scope: { tenantId: 'globex' } });

  const acmeMemory = await acme.memories.add({ content: 'The fiscal year starts in April.', type: 'fact' });
  await globex.memories.add({ content: 'The fiscal year starts in January.', type: 'fact' });
  console.log('wrote one "fiscal year" memory in each tenant');

  console.log('tenants see only their own memories:');
  const acmeFound = await acme.memories.search({ query: 'fiscal year' });
  const globexFound = await globex.memories.search({ query: 'fiscal year' });
  console.log(`  acme   -> ${acmeFound.memories.map((memory) => memory.content).join(' | ')}`);
  console.log(`  globex -> ${globexFound.memories.map((memory) => memory.content).join(' | ')}`);
  check(
    'acme finds April and not January',
    acmeFound.memories.every((memory) => memory.content.includes('April')),
  );
  check(
    'globex finds January and not April',
    globexFound.memories.every((memory) => memory.content.includes('January')),
  );

  const reached = await globex.memories.edit({ id: acmeMemory.id, content: 'Overwritten by globex' }).then(
    () => 'changed it',
    (error: unknown) => (NotFoundError.isInstance(error) ? 'not found' : String(error)),
  );
  check(`globex cannot edit acme's memory by id (${reached})`, reached === 'not found');

  console.log('inside a tenant, users are separated too:');
  await acme.memories.add({ content: 'Alice is allergic to peanuts.', scope: { userId: 'alice' } });
  const bobSees = await acme.memories.search({ query: 'allergic peanuts', scope: { userId: 'bob' } });
  const aliceSees = await acme.memories.search({ query: 'allergic peanuts', scope: { userId: 'alice' } });
  check("bob does not see alice's memory", bobSees.count === 0);
  check('alice sees her memory', aliceSees.count === 1);

  const management = createMemoryManagement(connection);
  const { tenants } = await management.tenants.list();
  console.log(
    `tenant databases: ${tenants.map((tenant) => `${tenant.tenantId} (${tenant.mode}, ${tenant.status})`).join(', ')}`,
  );
  check(
    'both tenants have their own database',
    ['acme', 'globex'].every((id) => tenants.some((tenant) => tenant.tenantId === id)),
  );
} finally {
  await service.close();
}

console.log(failures.length === 0 ? 'isolation holds' : `isolation broken: ${failures.join('; ')}`);
process.exitCode = failures.length === 0 ? 0 : 1;
