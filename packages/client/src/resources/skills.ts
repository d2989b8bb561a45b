import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller } from '../types.js';

/** `client.skills`: skill files (procedures returned beside memories). */
export function createSkillsResource(call: OperationCaller) {
  return {
    /** Creates or updates a skill file by path. */
    upsert: (input: CallInput<'skills.upsert'>, options?: RequestOptions) => call('skills.upsert', input, options),
    /** Lists skill files. */
    list: (input: CallInput<'skills.list'> = {}, options?: RequestOptions) => call('skills.list', input, options),
    /** Soft-deletes a skill file by path. */
    delete: (input: CallInput<'skills.delete'>, options?: RequestOptions) => call('skills.delete', input, options),
    /** Turns a session snapshot into a procedural skill file. */
    promote: (input: CallInput<'skills.promote'>, options?: RequestOptions) => call('skills.promote', input, options),
  };
}

/** The `client.skills` resource. */
export type SkillsResource = ReturnType<typeof createSkillsResource>;
