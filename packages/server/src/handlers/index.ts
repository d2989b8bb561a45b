import type { HandlerTable } from '../pipeline/handler-types.js';
import { consolidate } from './consolidate.js';
import { getContext } from './context.js';
import {
  embeddingsUsage,
  getEmbeddingsBackfill,
  getEmbeddingsObservability,
  listEmbeddingModels,
  postEmbeddingsBackfill,
} from './embeddings.js';
import { getGraphStatus, getRollout, patchRollout, postGraphStatus, postRollout, traceGraph } from './graph.js';
import { health } from './health.js';
import {
  createKey,
  disableTenant,
  eraseUser,
  evalReplay,
  exportWorkspace,
  getKeys,
  importIntoWorkspace,
  listTenants,
  memoryObservability,
  revokeKeys,
  upsertTenant,
} from './management/index.js';
import {
  addMemory,
  bulkForgetMemories,
  editMemory,
  forgetMemory,
  listMemories,
  restoreMemory,
  searchMemories,
  vacuumMemories,
} from './memories.js';
import { getMemory, memoryHistoryOf } from './memory-read.js';
import {
  checkpointSession,
  endSession,
  listSessions,
  sessionEvents,
  sessionSnapshot,
  startSession,
} from './sessions.js';
import { deleteSkillFile, listSkillFiles, promoteSkillFile, upsertSkillFile } from './skills.js';

/** The handler of every operation of the contract, by id (`satisfies`: the table must be complete). */
export const defaultHandlers = {
  health,
  'context.get': getContext,
  'memories.add': addMemory,
  'memories.search': searchMemories,
  'memories.list': listMemories,
  'memories.get': getMemory,
  'memories.history': memoryHistoryOf,
  'memories.edit': editMemory,
  'memories.forget': forgetMemory,
  'memories.restore': restoreMemory,
  'memories.bulkForget': bulkForgetMemories,
  'memories.vacuum': vacuumMemories,
  'memories.consolidate': consolidate,
  'graph.status.get': getGraphStatus,
  'graph.status.post': postGraphStatus,
  'graph.trace': traceGraph,
  'graph.rollout.get': getRollout,
  'graph.rollout.post': postRollout,
  'graph.rollout.patch': patchRollout,
  'skills.upsert': upsertSkillFile,
  'skills.list': listSkillFiles,
  'skills.delete': deleteSkillFile,
  'skills.promote': promoteSkillFile,
  'sessions.start': startSession,
  'sessions.checkpoint': checkpointSession,
  'sessions.end': endSession,
  'sessions.snapshot': sessionSnapshot,
  'sessions.list': listSessions,
  'sessions.events': sessionEvents,
  'management.keys.get': getKeys,
  'management.keys.post': createKey,
  'management.keys.delete': revokeKeys,
  'management.tenants.get': listTenants,
  'management.tenants.post': upsertTenant,
  'management.tenants.delete': disableTenant,
  'embeddings.models': listEmbeddingModels,
  'management.embeddings.usage': embeddingsUsage,
  'management.embeddings.backfill.get': getEmbeddingsBackfill,
  'management.embeddings.backfill.post': postEmbeddingsBackfill,
  'management.embeddings.observability': getEmbeddingsObservability,
  'management.memory.observability': memoryObservability,
  'management.memory.evalReplay': evalReplay,
  'management.export': exportWorkspace,
  'management.import': importIntoWorkspace,
  'management.users.erase': eraseUser,
} satisfies HandlerTable;
