import type { CallInput, OperationCaller } from '../types.js';

/** `client.skills`: skill files (procedures returned beside memories). */
export function createSkillsResource(call: OperationCaller) {
  return {
    /** Creates or updates a skill file by path. */
    upsert: (input: CallInput<'skills.upsert'>) => call('skills.upsert', input),
    /** Lists skill files. */
    list: (input: CallInput<'skills.list'> = {}) => call('skills.list', input),
    /** Soft-deletes a skill file by path. */
    delete: (input: CallInput<'skills.delete'>) => call('skills.delete', input),
    /** Turns a session snapshot into a procedural skill file. */
    promote: (input: CallInput<'skills.promote'>) => call('skills.promote', input),
  };
}

/** The `client.skills` resource. */
export type SkillsResource = ReturnType<typeof createSkillsResource>;
