import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mcpTools, operationList } from '../src/index.js';

/**
 * Counts written in the documentation ("the 37 routes", "19 MCP tools") drift as operations are added: READMEs once
 * said 37 operations where there were 40. Every such count in the repository's markdown is held here to the
 * operations table, so adding an operation fails this test until the prose says the new number.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function markdownFiles(): string[] {
  const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join('packages', entry.name, 'README.md'));
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  const examples = readdirSync(path.join(root, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join('examples', entry.name, 'README.md'));
  const all = ['README.md', 'SECURITY.md', 'BENCHMARKS.md', ...packages, ...docs, ...examples];
  return all.filter((file) => {
    try {
      readFileSync(path.join(root, file));
      return true;
    } catch {
      return false;
    }
  });
}

const NUMBER_WORDS = 'one two three four five six seven eight nine ten eleven twelve'.split(' ');

function numberOf(text: string): number {
  const index = NUMBER_WORDS.indexOf(text.toLowerCase());
  return index >= 0 ? index + 1 : Number(text.replace(',', ''));
}

const isExtension = (description: string) => description.startsWith('An extension beyond the written contract');
const extensions = operationList.filter((operation) => isExtension(operation.description)).length;

/** What each way of writing a count counts. */
const COUNTS = {
  all: operationList.length,
  written: operationList.length - extensions,
  extensions,
  tools: mcpTools.length,
} as const;

interface Claim {
  file: string;
  said: number;
  counts: keyof typeof COUNTS;
  text: string;
}

const N = String.raw`(\d+|${NUMBER_WORDS.join('|')})`;

/** Phrasings of a count, most specific first; the first to match a place in the text decides what it counts. */
const PHRASINGS: ReadonlyArray<readonly [RegExp, keyof typeof COUNTS]> = [
  [new RegExp(String.raw`\b${N} (?:routes|operations) (?:of|in) the (?:written )?contract`, 'gi'), 'written'],
  [new RegExp(String.raw`\b${N} contract (?:routes|operations)`, 'gi'), 'written'],
  [new RegExp(String.raw`written contract's ${N}\b`, 'gi'), 'written'],
  [new RegExp(String.raw`\b${N} (?:extension (?:routes|operations)|extensions)\b`, 'gi'), 'extensions'],
  [new RegExp(String.raw`\b${N} (?:MCP )?tools (?:over|in|of) MCP\b|\b${N} MCP tools\b`, 'gi'), 'tools'],
  [new RegExp(String.raw`\b${N} (?:HTTP )?(?:routes|operations)\b`, 'gi'), 'all'],
  [new RegExp(String.raw`\b(?:routes?|operations?)\b[^.()\x60]{0,120}\(${N} in all\b`, 'gi'), 'all'],
  [new RegExp(String.raw`\bMCP tools?\b[^.()\x60]{0,120}\(${N} in all\b`, 'gi'), 'tools'],
];

function claimsIn(file: string): Claim[] {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
  const claims: Claim[] = [];
  const taken = new Set<number>();
  for (const [pattern, counts] of PHRASINGS) {
    for (const match of text.matchAll(pattern)) {
      const said = match.slice(1).find((group) => group !== undefined) ?? '';
      const at = match.index + match[0].lastIndexOf(said);
      if (taken.has(at)) continue;
      taken.add(at);
      claims.push({ file, said: numberOf(said), counts, text: match[0] });
    }
  }
  return claims;
}

describe('counts in the documentation', () => {
  const claims = markdownFiles().flatMap(claimsIn);

  it('finds the counts it checks (the scan itself works)', () => {
    expect(claims.length).toBeGreaterThan(0);
  });

  it('say as many routes, operations and MCP tools as the operations table has', () => {
    const wrong = claims
      .filter((claim) => claim.said !== COUNTS[claim.counts])
      .map((claim) => `${claim.file}: "${claim.text}" should say ${COUNTS[claim.counts]}`);
    expect(wrong).toEqual([]);
  });
});
