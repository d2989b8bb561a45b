import type { RunEnvironment } from '../environment.js';
import { need } from '../expect.js';
import type { HttpResponse } from '../http.js';

const LIMITS = 'Limits';

/** One limit: a request over the bound that must answer 400, and (optionally) one at the bound that must pass. */
export interface LimitCase {
  name: string;
  title: string;
  section: string;
  refused: (env: RunEnvironment) => Promise<HttpResponse>;
  accepted?: (env: RunEnvironment) => Promise<HttpResponse>;
  acceptedStatus?: number;
}

const text = (length: number) => 'a'.repeat(length);

/** Every row of the contract's Limits table, as requests one past the bound (and, where cheap, at the bound). */
export function limitCases(sessionId: () => string | undefined): LimitCase[] {
  const post = (path: string, body: Record<string, unknown>) => (env: RunEnvironment) =>
    env.post(path, { ...body, scope: env.scope() });
  const get = (path: string, query: Record<string, string | number>) => (env: RunEnvironment) =>
    env.get(path, env.query(query));
  const session = () => need(sessionId(), 'an active session');
  return [
    {
      name: 'query-length',
      title: 'query: 500 chars accepted, 501 refused (context/get)',
      section: `${LIMITS} (query)`,
      refused: post('/context/get', { query: text(501) }),
      accepted: post('/context/get', { query: text(500) }),
    },
    {
      name: 'search-query-length',
      title: 'query: 500 chars accepted, 501 refused (memories/search)',
      section: `${LIMITS} (query)`,
      refused: post('/memories/search', { query: text(501) }),
      accepted: post('/memories/search', { query: text(500) }),
    },
    {
      name: 'content-empty',
      title: 'content: empty refused (memories/add)',
      section: `${LIMITS} (content 1..8000)`,
      refused: post('/memories/add', { content: '' }),
    },
    {
      name: 'content-length',
      title: 'content: 8000 chars accepted, 8001 refused (memories/add)',
      section: `${LIMITS} (content 1..8000)`,
      refused: post('/memories/add', { content: text(8001) }),
      accepted: post('/memories/add', { content: `conformance limit ${text(7982)}` }),
      acceptedStatus: 201,
    },
    {
      name: 'context-limit',
      title: 'limit: 50 accepted, 51 refused (context/get)',
      section: `${LIMITS} (limit 1..50)`,
      refused: post('/context/get', { query: 'x', limit: 51 }),
      accepted: post('/context/get', { query: 'x', limit: 50 }),
    },
    {
      name: 'context-limit-zero',
      title: 'limit: 1 accepted, 0 refused (context/get)',
      section: `${LIMITS} (limit 1..50)`,
      refused: post('/context/get', { query: 'x', limit: 0 }),
      accepted: post('/context/get', { query: 'x', limit: 1 }),
    },
    {
      name: 'search-limit',
      title: 'limit: 50 accepted, 51 refused (memories/search)',
      section: `${LIMITS} (limit 1..50)`,
      refused: post('/memories/search', { query: 'x', limit: 51 }),
      accepted: post('/memories/search', { query: 'x', limit: 50 }),
    },
    {
      name: 'trace-limit',
      title: 'limit: 50 accepted, 51 refused (graph/trace)',
      section: `${LIMITS} (limit 1..50)`,
      refused: post('/graph/trace', { query: 'x', limit: 51 }),
      accepted: post('/graph/trace', { query: 'x', limit: 50 }),
    },
    {
      name: 'list-limit',
      title: 'limit: 100 accepted, 101 refused (memories/list)',
      section: `${LIMITS} (limit 1..100)`,
      refused: post('/memories/list', { limit: 101 }),
      accepted: post('/memories/list', { limit: 100 }),
    },
    {
      name: 'graph-depth',
      title: 'graphDepth: 2 accepted, 3 refused',
      section: `${LIMITS} (graphDepth 0, 1 or 2)`,
      refused: post('/context/get', { query: 'x', graphDepth: 3 }),
      accepted: post('/context/get', { query: 'x', graphDepth: 2 }),
    },
    {
      name: 'graph-limit',
      title: 'graphLimit: 50 accepted, 51 refused',
      section: `${LIMITS} (graphLimit 1..50)`,
      refused: post('/context/get', { query: 'x', graphLimit: 51 }),
      accepted: post('/context/get', { query: 'x', graphLimit: 50 }),
    },
    {
      name: 'graph-limit-zero',
      title: 'graphLimit: 0 refused',
      section: `${LIMITS} (graphLimit 1..50)`,
      refused: post('/context/get', { query: 'x', graphLimit: 0 }),
    },
    {
      name: 'tags-count',
      title: 'tags: 50 items of 120 chars accepted, 51 items refused',
      section: `${LIMITS} (tags[])`,
      refused: post('/memories/add', {
        content: 'conformance tags',
        tags: Array.from({ length: 51 }, (_, index) => `t${index}`),
      }),
      accepted: post('/memories/add', {
        content: 'conformance tags at the bound',
        tags: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(120, 'x')),
      }),
      acceptedStatus: 201,
    },
    {
      name: 'tag-length',
      title: 'tags: an item of 121 chars refused',
      section: `${LIMITS} (tags[])`,
      refused: post('/memories/add', { content: 'conformance tag', tags: [text(121)] }),
    },
    {
      name: 'tag-empty',
      title: 'tags: an empty item refused',
      section: `${LIMITS} (tags[])`,
      refused: post('/memories/add', { content: 'conformance tag', tags: [''] }),
    },
    {
      name: 'paths-count',
      title: 'paths: 100 items accepted, 101 refused',
      section: `${LIMITS} (paths[])`,
      refused: post('/memories/add', {
        content: 'conformance paths',
        paths: Array.from({ length: 101 }, (_, index) => `p/${index}`),
      }),
      accepted: post('/memories/add', {
        content: 'conformance paths at the bound',
        paths: Array.from({ length: 100 }, (_, index) => `p/${index}`.padEnd(300, 'x')),
      }),
      acceptedStatus: 201,
    },
    {
      name: 'path-length',
      title: 'paths: an item of 301 chars refused',
      section: `${LIMITS} (paths[])`,
      refused: post('/memories/add', { content: 'conformance path', paths: [text(301)] }),
    },
    {
      name: 'category-length',
      title: 'category: 120 chars accepted, 121 refused',
      section: `${LIMITS} (category 1..120)`,
      refused: post('/memories/add', { content: 'conformance category', category: text(121) }),
      accepted: post('/memories/add', { content: 'conformance category at the bound', category: text(120) }),
      acceptedStatus: 201,
    },
    {
      name: 'category-empty',
      title: 'category: empty refused',
      section: `${LIMITS} (category 1..120)`,
      refused: post('/memories/add', { content: 'conformance category', category: '' }),
    },
    {
      name: 'edit-content-length',
      title: 'content: 8001 chars refused (memories/edit)',
      section: `${LIMITS} (content 1..8000)`,
      refused: post('/memories/edit', { id: 'conformance-any', content: text(8001) }),
    },
    {
      name: 'session-title',
      title: 'title: 240 chars accepted, 241 refused (sessions/start)',
      section: `${LIMITS} (title 1..240)`,
      refused: post('/sessions/start', { title: text(241) }),
      accepted: post('/sessions/start', { title: text(240) }),
      acceptedStatus: 201,
    },
    {
      name: 'session-client',
      title: 'client: 120 chars accepted, 121 refused (sessions/start)',
      section: `${LIMITS} (client 1..120)`,
      refused: post('/sessions/start', { client: text(121) }),
      accepted: post('/sessions/start', { client: text(120) }),
      acceptedStatus: 201,
    },
    {
      name: 'checkpoint-content',
      title: 'content: 16000 chars accepted, 16001 refused (sessions/checkpoint)',
      section: `${LIMITS} (content 1..16000)`,
      refused: (env) =>
        env.post('/sessions/checkpoint', { sessionId: session(), content: text(16001), scope: env.scope() }),
      accepted: (env) =>
        env.post('/sessions/checkpoint', { sessionId: session(), content: text(16000), scope: env.scope() }),
    },
    {
      name: 'session-id-length',
      title: 'sessionId: 121 chars refused (sessions/checkpoint)',
      section: `${LIMITS} (sessionId 1..120)`,
      refused: post('/sessions/checkpoint', { sessionId: text(121), content: 'x' }),
    },
    {
      name: 'consolidate-model',
      title: 'model: 161 chars refused (memories/consolidate)',
      section: `${LIMITS} (model 1..160)`,
      refused: post('/memories/consolidate', { dryRun: true, model: text(161) }),
    },
    {
      name: 'skill-path',
      title: 'path: 401 chars refused (skills/files/upsert)',
      section: `${LIMITS} (path 1..400)`,
      refused: post('/skills/files/upsert', { path: text(401), content: 'x' }),
    },
    {
      name: 'skill-path-empty',
      title: 'path: empty refused (skills/files/upsert)',
      section: `${LIMITS} (path 1..400)`,
      refused: post('/skills/files/upsert', { path: '', content: 'x' }),
    },
    {
      name: 'skill-content',
      title: 'content: 120001 chars refused (skills/files/upsert)',
      section: `${LIMITS} (content 1..120000)`,
      refused: post('/skills/files/upsert', { path: 'conformance/too-long.md', content: text(120_001) }),
    },
    {
      name: 'promote-title',
      title: 'title: 201 chars refused (skills/files/promote)',
      section: `${LIMITS} (title 1..200)`,
      refused: post('/skills/files/promote', {
        sessionId: 'conformance-any',
        path: 'conformance/p.md',
        title: text(201),
      }),
    },
    {
      name: 'promote-procedure-key',
      title: 'procedureKey: 121 chars refused (skills/files/promote)',
      section: `${LIMITS} (procedureKey 1..120)`,
      refused: post('/skills/files/promote', {
        sessionId: 'conformance-any',
        path: 'conformance/p.md',
        procedureKey: text(121),
      }),
    },
    {
      name: 'promote-max-steps',
      title: 'maxSteps: 21 refused (skills/files/promote)',
      section: `${LIMITS} (maxSteps 3..20)`,
      refused: post('/skills/files/promote', { sessionId: 'conformance-any', path: 'conformance/p.md', maxSteps: 21 }),
    },
    {
      name: 'promote-max-steps-low',
      title: 'maxSteps: 2 refused (skills/files/promote)',
      section: `${LIMITS} (maxSteps 3..20)`,
      refused: post('/skills/files/promote', { sessionId: 'conformance-any', path: 'conformance/p.md', maxSteps: 2 }),
    },
    {
      name: 'embeddings-window',
      title: 'windowHours: 168 accepted, 169 refused (embeddings observability)',
      section: `${LIMITS} (windowHours 1..168)`,
      refused: get('/management/embeddings/observability', { windowHours: 169 }),
      accepted: get('/management/embeddings/observability', { windowHours: 168 }),
    },
    {
      name: 'memory-window',
      title: 'windowHours: 336 accepted, 337 refused (memory observability)',
      section: `${LIMITS} (windowHours 1..336)`,
      refused: get('/management/memory/observability', { windowHours: 337 }),
      accepted: get('/management/memory/observability', { windowHours: 336 }),
    },
  ];
}
