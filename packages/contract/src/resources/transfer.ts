import * as z from 'zod';
import { MemoryLayerSchema, MemoryTypeSchema } from '../enums.js';
import { TenantIdSchema } from '../scope.js';

/**
 * The export format (docs/export-format.md): JSON lines, a header, one record per line, a trailer with counts and a
 * checksum. `memory-service export` and `GET /management/export` write it; `memory-service import` and
 * `POST /management/import` read it. Each record is the stored row as it is, so an import reproduces it exactly.
 */
export const TRANSFER_FORMAT = 'memory-service-export';
/** The version of the format this package writes and reads; another version is refused. */
export const TRANSFER_VERSION = 1;

/** A point in time as the server stores it (ISO 8601). */
const Timestamp = z
  .string()
  .min(1)
  .max(64)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'not a timestamp');
const Text = z.string();
const Nullable = <Schema extends z.ZodType>(schema: Schema) => schema.nullable();
const JsonObject = z.record(z.string(), z.unknown());
const Id = z.string().min(1).max(256);

/** The first line of an export. */
export const TransferHeaderSchema = z.looseObject({
  format: z.literal(TRANSFER_FORMAT),
  version: z.number().int(),
  exportedAt: Timestamp,
  /** Whether vector records follow the memories. */
  withVectors: z.boolean(),
  server: z.string().optional(),
});
export type TransferHeader = z.infer<typeof TransferHeaderSchema>;

/** Starts the records of one database: a workspace's own (tenantId null) or one of its tenants. */
export const TenantRecordSchema = z.strictObject({
  record: z.literal('tenant'),
  workspace: Id,
  workspaceName: z.string().min(1).max(256).nullable(),
  tenantId: TenantIdSchema.nullable(),
});

/** A memory row with every stored field (content_hash is derived again on import). */
export const MemoryRecordSchema = z.strictObject({
  record: z.literal('memory'),
  id: Id,
  content: Text,
  type: MemoryTypeSchema,
  layer: MemoryLayerSchema,
  tags: z.array(z.string()),
  paths: z.array(z.string()),
  category: Nullable(Text),
  metadata: JsonObject,
  userId: Nullable(Text),
  projectId: Nullable(Text),
  embeddingModel: Nullable(Text),
  supersededBy: Nullable(Id),
  supersededAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  occurredAt: Timestamp,
  expiresAt: Nullable(Timestamp),
  deletedAt: Nullable(Timestamp),
});

/** A wording an edit replaced (`GET /memories/{id}/history`). */
export const MemoryVersionRecordSchema = z.strictObject({
  record: z.literal('memoryVersion'),
  memoryId: Id,
  content: Text,
  type: MemoryTypeSchema,
  layer: MemoryLayerSchema,
  tags: z.array(z.string()),
  paths: z.array(z.string()),
  category: Nullable(Text),
  metadata: JsonObject,
  embeddingModel: Nullable(Text),
  occurredAt: Timestamp,
  validFrom: Timestamp,
  replacedAt: Timestamp,
});

/** A graph node (topic, entity, user, project...). */
export const GraphNodeRecordSchema = z.strictObject({
  record: z.literal('graphNode'),
  id: Id,
  kind: Text,
  label: Text,
  createdAt: Timestamp,
});

/** A memory-to-node link. */
export const GraphLinkRecordSchema = z.strictObject({
  record: z.literal('graphLink'),
  memoryId: Id,
  nodeId: Id,
  edgeType: Text,
  confidence: z.number(),
  createdAt: Timestamp,
});

/** A memory-to-memory edge (`similar_to`, `supersedes`, `contradicts`...). */
export const GraphEdgeRecordSchema = z.strictObject({
  record: z.literal('graphEdge'),
  sourceMemoryId: Id,
  targetMemoryId: Id,
  edgeType: Text,
  confidence: z.number(),
  origin: Text,
  detail: JsonObject,
  createdAt: Timestamp,
});

/** The consolidation subject of a memory. */
export const MemorySubjectRecordSchema = z.strictObject({
  record: z.literal('memorySubject'),
  memoryId: Id,
  groupKey: Text,
  keySource: Text,
});

/** A session. */
export const SessionRecordSchema = z.strictObject({
  record: z.literal('session'),
  id: Id,
  userId: Nullable(Text),
  projectId: Nullable(Text),
  client: Nullable(Text),
  status: Text,
  title: Nullable(Text),
  metadata: JsonObject,
  startedAt: Timestamp,
  lastActivityAt: Timestamp,
  endedAt: Nullable(Timestamp),
});

/** A checkpoint event of a session. */
export const SessionEventRecordSchema = z.strictObject({
  record: z.literal('sessionEvent'),
  id: Id,
  sessionId: Id,
  seq: z.number().int(),
  role: Text,
  kind: Text,
  content: Text,
  tokenCount: z.number().int(),
  turnIndex: z.number().int(),
  isMeaningful: z.boolean(),
  createdAt: Timestamp,
});

/** A snapshot of a session. */
export const SessionSnapshotRecordSchema = z.strictObject({
  record: z.literal('sessionSnapshot'),
  id: Id,
  sessionId: Id,
  seq: z.number().int(),
  slug: Text,
  sourceTrigger: Text,
  transcriptMd: Text,
  messageCount: z.number().int(),
  lastEventSeq: z.number().int(),
  summary: Nullable(Text),
  createdAt: Timestamp,
});

/** A skill file (soft-deleted ones included). */
export const SkillFileRecordSchema = z.strictObject({
  record: z.literal('skillFile'),
  id: Id,
  path: Text,
  title: Nullable(Text),
  content: Text,
  userId: Nullable(Text),
  projectId: Nullable(Text),
  scopeKey: Text,
  useCount: z.number().int(),
  lastUsedAt: Nullable(Timestamp),
  metadata: JsonObject,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Nullable(Timestamp),
});

/** A memory's vector of one embedding model (only with `--with-vectors`). */
export const VectorRecordSchema = z.strictObject({
  record: z.literal('vector'),
  memoryId: Id,
  model: z.string().min(1).max(160),
  dimensions: z.number().int().min(1).max(8192),
  values: z.array(z.number()),
  textHash: Text,
  embeddedAt: Timestamp,
});

/** Every record kind but the trailer. */
export const TransferRecordSchema = z.discriminatedUnion('record', [
  TenantRecordSchema,
  MemoryRecordSchema,
  MemoryVersionRecordSchema,
  GraphNodeRecordSchema,
  GraphLinkRecordSchema,
  GraphEdgeRecordSchema,
  MemorySubjectRecordSchema,
  SessionRecordSchema,
  SessionEventRecordSchema,
  SessionSnapshotRecordSchema,
  SkillFileRecordSchema,
  VectorRecordSchema,
]);
export type TransferRecord = z.infer<typeof TransferRecordSchema>;
/** The kinds of record, as the trailer counts them. */
export type TransferRecordKind = TransferRecord['record'];
/** The record kinds in the order an export writes them within a database. */
export const TRANSFER_RECORD_KINDS = [
  'tenant',
  'memory',
  'memoryVersion',
  'graphNode',
  'graphLink',
  'graphEdge',
  'memorySubject',
  'session',
  'sessionEvent',
  'sessionSnapshot',
  'skillFile',
  'vector',
] as const satisfies readonly TransferRecordKind[];

/** Records of each kind. */
export const TransferCountsSchema = z.strictObject(
  Object.fromEntries(TRANSFER_RECORD_KINDS.map((kind) => [kind, z.number().int().min(0)])) as {
    [Kind in TransferRecordKind]: z.ZodNumber;
  },
);
export type TransferCounts = z.infer<typeof TransferCountsSchema>;

/**
 * The last line: the records of each kind, their total, and the SHA-256 (hex) of every byte before this line (the
 * header and each record, each with its newline). A truncated or edited file fails one of them.
 */
export const TransferTrailerSchema = z.strictObject({
  record: z.literal('end'),
  records: z.number().int().min(0),
  counts: TransferCountsSchema,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TransferTrailer = z.infer<typeof TransferTrailerSchema>;

/** `GET /management/export`: one tenant of the caller's workspace, or (no tenantId) all its databases. */
export const ExportInputSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  withVectors: z.enum(['true', 'false']).optional(),
});

/** One line of the answer of `GET /management/export` (the header and the trailer are lines too). */
export const ExportLineSchema = z.union([TransferHeaderSchema, TransferRecordSchema, TransferTrailerSchema]);

/** `POST /management/import`: the query string; the body is the export itself. */
export const ImportInputSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  withVectors: z.enum(['true', 'false']).optional(),
});

/** What an import wrote. */
export const ImportDataSchema = z.object({
  /** The format read: this service's, mem0's JSON lines, or mem0's `getAll` JSON. */
  format: z.enum(['memory-service', 'mem0-jsonl', 'mem0-json']),
  databases: z.array(z.object({ workspace: z.string(), tenantId: z.string().nullable(), records: z.number().int() })),
  counts: TransferCountsSchema,
  /** Memories queued for indexing (their vectors and graph edges are derived again). */
  queuedForIndexing: z.number().int(),
});

/** Caps of the transfer routes (the CLI has none: it streams from and to files). */
export const TRANSFER_LIMITS = {
  /** UTF-8 bytes of the body of `POST /management/import`; a larger export goes through `memory-service import`. */
  importBodyBytes: 64 * 1024 * 1024,
  /** UTF-8 bytes of one line of an export file (a skill file of 120,000 characters fits many times over). */
  lineBytes: 16 * 1024 * 1024,
} as const;
