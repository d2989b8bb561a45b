import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  inputFromMcpArguments,
  mcpArgumentsFromInput,
  mcpTools,
  type OperationDefinition,
  operations,
  SCOPE_FIELDS,
} from '@memory-service/contract';
import { describe, expect, it } from 'vitest';
import { toolArgumentShape } from '../src/mcp/tool-schemas.js';

const repository = path.resolve(import.meta.dirname, '../../..');

/** The TypeScript sources of a folder of the repository, tests left out. */
function sources(folder: string): { file: string; text: string }[] {
  return readdirSync(path.join(repository, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .map((file) => ({ file: path.relative(repository, file), text: readFileSync(file, 'utf8') }));
}

/** Where each match of a pattern is, as `file: line`. */
function matches(folders: string[], pattern: RegExp): string[] {
  return folders
    .flatMap(sources)
    .flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
}

const inputFields = (operation: OperationDefinition) =>
  Object.keys((operation.input as unknown as { shape: Record<string, unknown> }).shape);

describe('the MCP tools advertise the argument names the contract maps', () => {
  it.each(mcpTools.map((tool) => [tool.name, tool] as const))(
    '%s: each advertised argument reads into an input field and writes back under its name',
    (_, tool) => {
      const operation = operations[tool.operationId] as OperationDefinition;
      const fields = inputFields(operation).flatMap((field) =>
        field === 'scope' ? SCOPE_FIELDS.map((scopeField) => `scope.${scopeField}`) : [field],
      );
      const passedThrough = new Set([...Object.keys(tool.ignoredArguments ?? {}), ...(tool.filterArguments ?? [])]);
      for (const name of Object.keys(toolArgumentShape(tool, operation))) {
        if (passedThrough.has(name)) continue;
        const input = inputFromMcpArguments({ [name]: 'value' }, operation, tool);
        const read = Object.entries(input).flatMap(([field, value]) =>
          field === 'scope' ? Object.keys(value as object).map((scopeField) => `scope.${scopeField}`) : [field],
        );
        expect(read, `${tool.name} ${name}`).toHaveLength(1);
        expect(fields, `${tool.name} ${name}`).toContain(read[0]);
        expect(mcpArgumentsFromInput(input), `${tool.name} ${name}`).toEqual({ [name]: 'value' });
      }
    },
  );
});

describe('the mapping rules are written in the contract only', () => {
  const consumers = [
    'packages/server/src',
    'packages/client/src',
    'packages/ai-middleware/src',
    'packages/console/src',
  ];

  it('reads no scopeSource outside the contract (scopeLocation, requestScope and placeScope do)', () => {
    expect(matches(consumers, /\.scopeSource\b/)).toEqual([]);
  });

  it('spells no strategy alias nor renamed MCP argument outside the contract (its strategy and mcp tables do)', () => {
    expect(matches(consumers, /'(baseline|hybrid_graph|retrieval_strategy)'/)).toEqual([
      // `baseline` here is graph/trace's recall source (found without the graph), not the strategy alias.
      expect.stringMatching(/^packages\/server\/src\/handlers\/graph\.ts:\d+: source: .*'baseline',$/),
    ]);
  });

  it('spells no MCP scope argument in the MCP tools nor the client (MCP_SCOPE_ARGUMENTS does)', () => {
    expect(matches(['packages/server/src/mcp', 'packages/client/src'], /'(tenant|user|project)_id'/)).toEqual([]);
  });
});
