import { getContext } from './context.js';
import { health } from './health.js';
import {
  addMemory,
  bulkForgetMemories,
  editMemory,
  forgetMemory,
  listMemories,
  searchMemories,
  vacuumMemories,
} from './memories.js';
import { checkpointSession, endSession, sessionSnapshot, startSession } from './sessions.js';
import { deleteSkillFile, listSkillFiles, promoteSkillFile, upsertSkillFile } from './skills.js';
import type { HandlerTable } from './types.js';

/** Every handler this server has, by operation id. */
export const defaultHandlers: HandlerTable = {
  health,
  'context.get': getContext,
  'memories.add': addMemory,
  'memories.search': searchMemories,
  'memories.list': listMemories,
  'memories.edit': editMemory,
  'memories.forget': forgetMemory,
  'memories.bulkForget': bulkForgetMemories,
  'memories.vacuum': vacuumMemories,
  'skills.upsert': upsertSkillFile,
  'skills.list': listSkillFiles,
  'skills.delete': deleteSkillFile,
  'skills.promote': promoteSkillFile,
  'sessions.start': startSession,
  'sessions.checkpoint': checkpointSession,
  'sessions.end': endSession,
  'sessions.snapshot': sessionSnapshot,
};
