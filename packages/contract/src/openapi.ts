import * as z from 'zod';
import { ErrorEnvelopeSchema, MetaSchema } from './envelope.js';
import { ERROR_CODES } from './errors.js';
import { IDEMPOTENCY } from './idempotency.js';
import {
  AUTH_CREDENTIALS,
  type Credential,
  OPERATION_TAGS,
  type OperationDefinition,
  operationErrorCodes,
  operationList,
} from './operations.js';
import { API_PREFIX, CONTRACT_VERSION, SERVICE_NAME } from './version.js';

type JsonSchema = Record<string, unknown>;

/** The security scheme of each credential. */
const SECURITY_SCHEMES: Readonly<Record<Credential, string>> = { apiKey: 'bearerAuth', adminToken: 'adminToken' };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return rest;
}

function successSchema(operation: OperationDefinition): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'data', 'error', 'meta'],
    properties: {
      ok: { const: true },
      data: jsonSchema(operation.data, 'output'),
      error: { type: 'null' },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  };
}

/** The Idempotency-Key header every write takes (idempotency.ts). */
const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: IDEMPOTENCY.header,
  in: 'header',
  required: false,
  description:
    'Runs the write once per key: a retry with the same key and body gets the first answer (Idempotent-Replayed: true); the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Kept 24 hours per workspace.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY.maxKeyLength, pattern: '^[\\x21-\\x7e]+$' },
};

function parameters(operation: OperationDefinition): JsonSchema[] {
  const header = !operation.readOnly && operation.auth !== 'none' ? [IDEMPOTENCY_KEY_PARAMETER] : [];
  return [...queryParameters(operation), ...header];
}

function queryParameters(operation: OperationDefinition): JsonSchema[] {
  if (operation.inputLocation !== 'query') return [];
  const schema = jsonSchema(operation.input, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const inPath = operation.pathParams.includes(name);
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath || (schema.required ?? []).includes(name),
      schema: property,
    };
  });
}

function errorResponses(operation: OperationDefinition): Record<string, JsonSchema> {
  const byStatus = new Map<number, string[]>();
  for (const code of operationErrorCodes(operation)) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${codes.join(', ')}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return responses;
}

function operationObject(operation: OperationDefinition): JsonSchema {
  const success = {
    description: 'Success',
    content: { 'application/json': { schema: successSchema(operation) } },
  };
  const statuses = [operation.successStatus, ...(operation.alternateStatuses ?? [])];
  const responses: Record<string, JsonSchema> = Object.fromEntries(statuses.map((status) => [String(status), success]));
  const result: JsonSchema = {
    operationId: operation.id,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    parameters: parameters(operation),
    responses: { ...responses, ...errorResponses(operation) },
  };
  if (operation.stream === 'response') {
    // JSON lines, one document each: `data` describes a line (errors before the first line keep the envelope).
    (result.responses as Record<string, JsonSchema>)[String(operation.successStatus)] = {
      description: 'Success: JSON lines (application/x-ndjson), each one of the schema',
      content: { 'application/x-ndjson': { schema: jsonSchema(operation.data, 'output') } },
    };
  }
  if (operation.stream === 'request') {
    result.requestBody = { required: true, content: { 'application/x-ndjson': { schema: { type: 'string' } } } };
  }
  if (operation.inputLocation === 'body') {
    const schema = jsonSchema(operation.input, 'input');
    // A body whose every field is optional may be left out (context/get, memories/list, sessions/start...).
    const required = Array.isArray(schema.required) && schema.required.length > 0;
    result.requestBody = { required, content: { 'application/json': { schema } } };
  }
  // Alternatives: any one of the credentials the route takes.
  result.security = AUTH_CREDENTIALS[operation.auth].map((credential) => ({ [SECURITY_SCHEMES[credential]]: [] }));
  if (operation.featureFlag) result['x-feature-flag'] = operation.featureFlag;
  const [tool] = operation.mcp;
  if (tool !== undefined) result['x-mcp-tool'] = tool.name;
  return result;
}

/** The OpenAPI 3.1 document of the whole contract, generated from the operations table. */
export function openApiDocument(options: { serverUrl?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operationList) {
    const path = `${API_PREFIX}${operation.path}`;
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Persistent Memory Service',
      version: CONTRACT_VERSION,
      description: `HTTP contract v1 of ${SERVICE_NAME}. Every response uses the envelope { ok, data, error, meta }.`,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: `${SERVICE_NAME} maintainers` },
    },
    tags: Object.entries(OPERATION_TAGS).map(([name, description]) => ({ name, description })),
    servers: [{ url: options.serverUrl ?? '/' }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key beginning with mem_' },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The operator's admin token (MEMORY_ADMIN_TOKEN): the only credential of /management/keys, and the default owner's session on the other management routes and embeddings/models",
        },
      },
      schemas: {
        Meta: jsonSchema(MetaSchema, 'output'),
        ErrorEnvelope: jsonSchema(ErrorEnvelopeSchema, 'output'),
      },
    },
  };
}
