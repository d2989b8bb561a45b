import {
  ApiErrorObjectSchema,
  inputFieldOfMcpArgument,
  MCP_SCOPE_ARGUMENTS,
  MCP_SNAKE_CASE_OBJECTS,
  type McpToolDefinition,
  MetaSchema,
  mcpArgumentName,
  type OperationDefinition,
  SCOPE_FIELDS,
  ScopeSchema,
} from '@memory-service/contract';
import type { StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** Tool arguments as the MCP client sent them (snake_case, flat scope). */
export type ToolArguments = Record<string, unknown>;

/**
 * Descriptions of arguments whose schema has none, by input field. The argument names come from the contract's
 * mapping (`mcpArgumentName`, `MCP_SCOPE_ARGUMENTS`), which also reads the arguments back into an input.
 */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  tenantId:
    "Tenant (AI SDK Project) whose database is used: the security boundary. Omit it for the API key owner's workspace.",
  userId: "End user inside the tenant: that user's records plus shared ones are visible, and writes belong to them.",
  projectId: "Project or repository filter inside the tenant: that project's records plus global ones are visible.",
  strategy: 'lexical or hybrid; the legacy aliases baseline and hybrid_graph are accepted.',
  sessionId: 'The session id returned by start_session.',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The fields of an object schema (refinements keep a zod 4 object an object); none for anything else. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

/** A field as advertised: required where the operation requires it, with a description where one is known. */
function advertised(field: z.ZodType, inputField: string): z.ZodType {
  const description = field.description ?? FIELD_DESCRIPTIONS[inputField];
  return description === undefined ? field : field.describe(description);
}

function snakeCaseObject(field: z.ZodType): z.ZodType {
  const inner = unwrapOptional(field);
  if (!(inner instanceof z.ZodObject)) return field;
  const shape = Object.fromEntries(
    Object.entries(objectShape(inner)).map(([key, value]) => [
      mcpArgumentName(key, { nested: true }),
      advertised(value, key),
    ]),
  );
  const object = z.strictObject(shape);
  return field instanceof z.ZodOptional ? object.optional() : object;
}

/**
 * The advertised argument fields of a tool: the operation input's top-level keys in snake_case, `scope`
 * flattened into `tenant_id`/`user_id`/`project_id`, `strategy` as `retrieval_strategy`, each field required
 * exactly when the operation requires it (`tools/list` shows `required: ["content"]` on add_memory), and the
 * tool's fixed input left out (the tool always sets it).
 */
export function toolArgumentShape(tool: McpToolDefinition, operation: OperationDefinition): Record<string, z.ZodType> {
  const fixed = new Set(Object.keys(tool.fixedInput ?? {}));
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(objectShape(operation.input))) {
    if (fixed.has(key)) continue;
    if (key === 'scope') {
      for (const scopeField of SCOPE_FIELDS) {
        shape[MCP_SCOPE_ARGUMENTS[scopeField]] = advertised(ScopeSchema.shape[scopeField], scopeField);
      }
      continue;
    }
    shape[mcpArgumentName(key)] = advertised(
      MCP_SNAKE_CASE_OBJECTS.includes(key) ? snakeCaseObject(field) : field,
      key,
    );
  }
  // Filter fields a client may give at the top level (bulk_forget_memories, as memories.sh sends them).
  const filters = objectShape(unwrapOptional(objectShape(operation.input).filters ?? z.never()));
  for (const name of tool.filterArguments ?? []) {
    const field = filters[inputFieldOfMcpArgument(name, { nested: true })];
    if (field !== undefined) shape[name] = field.describe(`The same as filters.${name}.`);
  }
  // Client-side hints the tool accepts and drops (get_context: memories.sh's session hints).
  for (const [name, description] of Object.entries(tool.ignoredArguments ?? {})) {
    shape[name] = z.unknown().optional().describe(description);
  }
  return shape;
}

/**
 * A tool's input schema: `tools/list` advertises the typed, snake_case fields (and no others: an unknown argument
 * is refused, docs/architecture.md#the-operations-table), while `tools/call` accepts any JSON object, so that validation happens once, in the
 * operation pipeline, and a bad argument comes back as the contract's error envelope with its proper code
 * instead of an SDK message.
 */
export function toolInputSchema(
  tool: McpToolDefinition,
  operation: OperationDefinition,
): StandardSchemaWithJSON<ToolArguments, ToolArguments> {
  // Built once per tool: a stateless MCP server is created for every request.
  const cached = inputSchemas.get(tool);
  if (cached !== undefined) return cached;
  const typed = z.strictObject(toolArgumentShape(tool, operation));
  const schema: StandardSchemaWithJSON<ToolArguments, ToolArguments> = {
    '~standard': {
      version: 1,
      vendor: 'memory-service',
      validate: (value: unknown) =>
        isRecord(value) ? { value } : { issues: [{ message: 'The tool arguments must be a JSON object' }] },
      jsonSchema: memoizedJsonSchema(typed['~standard'].jsonSchema),
    },
  };
  inputSchemas.set(tool, schema);
  return schema;
}

type JsonSchemaConverter = StandardSchemaWithJSON<ToolArguments, ToolArguments>['~standard']['jsonSchema'];

/**
 * The same conversions, done once per target: every `tools/list` asks for every tool's schemas (zod to JSON Schema
 * costs milliseconds per tool), and a schema never changes while the server runs.
 */
function memoizedJsonSchema(convert: JsonSchemaConverter): JsonSchemaConverter {
  const done = new Map<string, Record<string, unknown>>();
  const once =
    (io: 'input' | 'output'): JsonSchemaConverter['input'] =>
    (options) => {
      const key = `${io}:${options.target}`;
      let converted = done.get(key);
      if (converted === undefined) {
        converted = convert[io](options);
        done.set(key, converted);
      }
      return converted;
    };
  return { input: once('input'), output: once('output') };
}

const inputSchemas = new WeakMap<McpToolDefinition, StandardSchemaWithJSON<ToolArguments, ToolArguments>>();

/**
 * JSON Schema of a response schema as the contract means it: lenient, so an object allows fields beyond those it
 * names (zod writes `additionalProperties: false` for every output object; only strict objects mean that).
 */
function lenientJsonSchema(schema: z.ZodType, io: 'input' | 'output', target: string): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io,
    target: target as 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const definition = zodSchema._zod.def as { type: string; catchall?: unknown };
      if (definition.type === 'object' && definition.catchall === undefined) delete jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;
}

/**
 * A tool's output schema: `structuredContent` is the contract's envelope, success or error, whose `data` is the
 * operation's data schema (null on failure). It describes the result for clients and is not checked again here:
 * the data comes from the operation's own handler, as on the HTTP route.
 */
export function toolOutputSchema(operation: OperationDefinition): StandardSchemaWithJSON<ToolArguments, ToolArguments> {
  const cached = outputSchemas.get(operation);
  if (cached !== undefined) return cached;
  const envelope = z.object({
    ok: z.boolean(),
    data: operation.data.nullable(),
    error: ApiErrorObjectSchema.nullable(),
    meta: MetaSchema,
  });
  const schema: StandardSchemaWithJSON<ToolArguments, ToolArguments> = {
    '~standard': {
      version: 1,
      vendor: 'memory-service',
      validate: (value: unknown) =>
        isRecord(value) ? { value } : { issues: [{ message: 'The tool result must be a JSON object' }] },
      jsonSchema: memoizedJsonSchema({
        input: ({ target }) => lenientJsonSchema(envelope, 'input', target),
        output: ({ target }) => lenientJsonSchema(envelope, 'output', target),
      }),
    },
  };
  outputSchemas.set(operation, schema);
  return schema;
}

const outputSchemas = new WeakMap<OperationDefinition, StandardSchemaWithJSON<ToolArguments, ToolArguments>>();

/** Behaviour hints for MCP clients, from the operation's table entry; every tool acts on this service only. */
export function toolAnnotations(operation: OperationDefinition): ToolAnnotations {
  return { readOnlyHint: operation.readOnly, destructiveHint: operation.destructive, openWorldHint: false };
}
