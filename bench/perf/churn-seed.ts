import { LIMITS } from '../../packages/contract/src/index.js';
import { postJson, type Target } from './churn-http.js';
import { generateMemories } from './seed-data.js';

/** What the MCP batches read: memories at the field caps in one tenant, large skill files in another. */
export interface McpSeed {
  memoryTenant: string;
  memories: number;
  skillTenant: string;
  skillFiles: number;
  /** Characters of each skill file (`LIMITS.skillContent.max`); most take 3 UTF-8 bytes. */
  skillFileChars: number;
  skillFileBytes: number;
  seconds: number;
}

/** Requests of the seeding that run at once. */
const SEED_CONCURRENCY = 4;

async function seedOne(target: Target, path: string, body: unknown): Promise<void> {
  const answer = await postJson(target, path, body);
  if (answer.status !== 200 && answer.status !== 201)
    throw new Error(`seeding ${path} answered ${answer.status}: ${answer.text?.slice(0, 300)}`);
}

async function inBatches(count: number, each: (index: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += SEED_CONCURRENCY)
    await Promise.all(
      Array.from({ length: Math.min(SEED_CONCURRENCY, count - start) }, (_, offset) => each(start + offset)),
    );
}

/** Memory text at the content cap: generated memories joined until the cap, numbered so none repeats. */
function cappedContent(index: number): string {
  let text = `Note ${index}.`;
  for (const memory of generateMemories(200, 1000 + index)) {
    if (text.length >= LIMITS.memoryContent.max) break;
    text += ` ${memory.content}`;
  }
  return text.slice(0, LIMITS.memoryContent.max);
}

/** Skill file text at the content cap in characters, mostly 3-byte ones (the largest files the contract takes). */
function largeSkillContent(index: number): string {
  const header = `# Procedure ${index}\n`;
  const body = '手順を確認する '.repeat(Math.ceil(LIMITS.skillContent.max / 8));
  return (header + body).slice(0, LIMITS.skillContent.max);
}

/**
 * Seeds through the API: `memories` memories at the content and metadata caps, and `skillFiles` skill files of the
 * largest size.
 */
export async function seedMcpTenants(
  target: Target,
  { memories = 100, skillFiles = 100 }: { memories?: number; skillFiles?: number } = {},
): Promise<McpSeed> {
  const started = performance.now();
  const memoryTenant = 'churn-mcp-memories';
  const skillTenant = 'churn-mcp-skills';
  // The metadata JSON just under its byte cap ({"blob":"..."} adds 11 bytes).
  const metadata = { blob: 'm'.repeat(LIMITS.metadata.maxBytes - 20) };
  await inBatches(memories, (index) =>
    seedOne(target, '/api/sdk/v1/memories/add', {
      content: cappedContent(index),
      metadata,
      scope: { tenantId: memoryTenant },
    }),
  );
  await inBatches(skillFiles, (index) =>
    seedOne(target, '/api/sdk/v1/skills/files/upsert', {
      path: `procedures/churn-${String(index).padStart(3, '0')}.md`,
      content: largeSkillContent(index),
      scope: { tenantId: skillTenant },
    }),
  );
  return {
    memoryTenant,
    memories,
    skillTenant,
    skillFiles,
    skillFileChars: LIMITS.skillContent.max,
    skillFileBytes: Buffer.byteLength(largeSkillContent(0)),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
