import type { MemoryLayer, MemoryType } from '../../packages/contract/src/index.js';

/**
 * Deterministic, realistic memories for the performance benchmark: a software team's rules, decisions, facts and
 * notes about services, people and tools, generated from a fixed seed so every run measures the same data.
 */

/** mulberry32: a small, fast, seeded PRNG (same seed, same sequence). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = [
  'billing',
  'checkout',
  'search',
  'auth',
  'notifications',
  'inventory',
  'payments',
  'analytics',
  'gateway',
  'scheduler',
  'reporting',
  'onboarding',
  'ledger',
  'catalog',
  'shipping',
  'pricing',
];
const TOOLS = [
  'PostgreSQL',
  'Redis',
  'Kafka',
  'libSQL',
  'S3',
  'Terraform',
  'Kubernetes',
  'Grafana',
  'Sentry',
  'Stripe',
  'GitHub Actions',
  'Vitest',
  'Playwright',
  'OpenTelemetry',
  'Cloudflare',
  'Docker',
];
const PEOPLE = ['Alice', 'Bob', 'Carla', 'Deepak', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Lars'];
const VERBS = [
  'retries',
  'caches',
  'batches',
  'validates',
  'streams',
  'shards',
  'indexes',
  'rate-limits',
  'encrypts',
  'deduplicates',
  'logs',
  'replays',
];
const OBJECTS = [
  'webhooks',
  'invoices',
  'sessions',
  'events',
  'queries',
  'uploads',
  'refunds',
  'emails',
  'feature flags',
  'migrations',
  'API keys',
  'audit logs',
];
const REASONS = [
  'to cut p95 latency',
  'after the March incident',
  'for GDPR compliance',
  'to reduce cloud cost',
  'because the vendor SDK is flaky',
  'to simplify on-call',
  'for multi-region failover',
  'to unblock the mobile team',
];
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tas',
  'vo',
  'qui',
  'zen',
  'dor',
  'pha',
  'li',
  'mur',
  'sen',
  'tri',
  'gal',
  'bex',
  'nu',
  'or',
  'wyn',
  'cal',
];
/** A long tail of rare words (project codenames, customers), as real memory stores have. */
function codename(random: () => number): string {
  const length = 2 + Math.floor(random() * 2);
  return Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
}
const TEMPLATES: Array<{ type: MemoryType; layer?: MemoryLayer; render: (pick: <T>(items: T[]) => T) => string }> = [
  {
    type: 'decision',
    render: (pick) =>
      `Decision: the ${pick(SERVICES)} service ${pick(VERBS)} ${pick(OBJECTS)} with ${pick(TOOLS)} ${pick(REASONS)}.`,
  },
  {
    type: 'fact',
    render: (pick) =>
      `${pick(PEOPLE)} owns the ${pick(SERVICES)} service and is the on-call contact for ${pick(OBJECTS)}.`,
  },
  {
    type: 'fact',
    render: (pick) =>
      `The ${pick(SERVICES)} service stores ${pick(OBJECTS)} in ${pick(TOOLS)}; retention is ${1 + Math.floor(pick([1, 2, 3, 6, 12]) * 30)} days.`,
  },
  {
    type: 'note',
    render: (pick) =>
      `${pick(PEOPLE)} mentioned that ${pick(OBJECTS)} in ${pick(SERVICES)} sometimes time out when ${pick(TOOLS)} is under load.`,
  },
  {
    type: 'note',
    layer: 'working',
    render: (pick) =>
      `Currently investigating why ${pick(SERVICES)} ${pick(VERBS)} ${pick(OBJECTS)} twice; ${pick(PEOPLE)} is pairing on it.`,
  },
  {
    type: 'rule',
    render: (pick) => `Always run the ${pick(TOOLS)} checks before merging changes to ${pick(SERVICES)}.`,
  },
];

/** One generated memory. */
export interface SeedMemory {
  content: string;
  type: MemoryType;
  layer: MemoryLayer;
  tags: string[];
  category: string;
  paths: string[];
  createdAt: string;
}

/** Generates `count` memories from `seed`; rules are rare (1 in 500) as in real workspaces. */
export function* generateMemories(count: number, seed = 42): Generator<SeedMemory> {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const start = Date.UTC(2025, 0, 1);
  for (let index = 0; index < count; index += 1) {
    const template = index % 500 === 0 ? TEMPLATES[5]! : TEMPLATES[Math.floor(random() * 5)]!;
    const service = pick(SERVICES);
    const detail = `Project ${codename(random)} for customer ${codename(random)} (ticket ${1000 + Math.floor(random() * 90_000)}).`;
    yield {
      content: `${template.render(pick)} ${detail}`,
      type: template.type,
      layer: template.layer ?? (template.type === 'rule' ? 'rule' : 'long_term'),
      tags: [service, pick(TOOLS).toLowerCase().replace(/\s+/g, '-')],
      category: service,
      paths: random() < 0.3 ? [`services/${service}/src/${pick(OBJECTS).replace(/\s+/g, '-')}.ts`] : [],
      createdAt: new Date(start + index * 60_000).toISOString(),
    };
  }
}

/** Queries like a developer's prompts, drawn from the same vocabulary. */
export function generateQueries(count: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const shapes = [
    () => `how does ${pick(SERVICES)} handle ${pick(OBJECTS)} for ${codename(random)}`,
    () => `who owns the ${pick(SERVICES)} service`,
    () => `why did we move ${pick(OBJECTS)} to ${pick(TOOLS)}`,
    () => `status of project ${codename(random)} ${pick(OBJECTS)}`,
  ];
  return Array.from({ length: count }, () => pick(shapes)());
}
