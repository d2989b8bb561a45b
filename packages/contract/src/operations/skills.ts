import * as skill from '../resources/skill-file.js';
import { op, sessionRequired, tenantCodes } from './define-operation.js';

/** The skill file routes, and the promotion of a session snapshot into a procedural skill file. */
export const skillOperations = {
  'skills.upsert': op({
    id: 'skills.upsert',
    method: 'POST',
    path: '/skills/files/upsert',
    summary: 'Create or update a skill file',
    description:
      "Creates the skill file at `path` in the request's exact scope, or replaces its content; `created` says which. A request whose scope names a userId writes that user's own file, never a shared one at the same path.",
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.UpsertSkillFileInputSchema,
    data: skill.UpsertSkillFileDataSchema,
    successStatus: 200,
    mcp: [{ name: 'upsert_skill_file', description: 'Create or update a skill file by path.' }],
    errorCodes: tenantCodes,
  }),
  'skills.list': op({
    id: 'skills.list',
    method: 'POST',
    readOnly: true,
    path: '/skills/files/list',
    summary: 'List skill files',
    description:
      'Lists the skill files in scope by path, whole, a page at a time: at most `limit` files and 1 MiB of their text (`LIMITS.skillListBytes`). `truncated` says the byte budget ended the page; `nextCursor`, passed as `cursor`, lists the files after it. Every field is optional.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.ListSkillFilesInputSchema,
    data: skill.ListSkillFilesDataSchema,
    successStatus: 200,
    mcp: [
      {
        name: 'list_skill_files',
        description: "List skill files by path, a page at a time; pass the answer's nextCursor as cursor for the rest.",
      },
    ],
    errorCodes: tenantCodes,
  }),
  'skills.delete': op({
    id: 'skills.delete',
    method: 'POST',
    path: '/skills/files/delete',
    summary: 'Soft-delete a skill file',
    description:
      "Soft-deletes the skill file at `path` (the request's own file first). A request whose scope names a userId cannot delete a shared skill file (no userId): 403 SKILL_FILE_SHARED_READ_ONLY.",
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.DeleteSkillFileInputSchema,
    data: skill.DeleteSkillFileDataSchema,
    successStatus: 200,
    destructive: true,
    createsTenant: false,
    mcp: [{ name: 'delete_skill_file', description: 'Soft-delete a skill file by path.' }],
    errorCodes: [...tenantCodes, 'SKILL_FILE_NOT_FOUND', 'SKILL_FILE_SHARED_READ_ONLY'],
  }),
  'skills.promote': op({
    id: 'skills.promote',
    method: 'POST',
    path: '/skills/files/promote',
    summary: 'Promote a session snapshot into a procedural skill file',
    description:
      'Turns a session snapshot into a procedural skill file at `path`: 201 when the file is created, 200 when an existing file is updated. Requires MEMORY_PROCEDURAL_ENABLED.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.PromoteSkillFileInputSchema,
    data: skill.PromoteSkillFileDataSchema,
    successStatus: 201,
    createsTenant: false,
    mcp: [{ name: 'promote_skill_file', description: 'Promote a session snapshot into a procedural skill file.' }],
    alternateStatuses: [200],
    featureFlag: 'MEMORY_PROCEDURAL_ENABLED',
    errorCodes: [
      ...tenantCodes,
      'SESSION_ID_REQUIRED',
      'SKILL_FILE_PATH_REQUIRED',
      'SESSION_NOT_FOUND',
      'SESSION_SNAPSHOT_NOT_FOUND',
    ],
    fieldCodes: [sessionRequired, { field: 'path', code: 'SKILL_FILE_PATH_REQUIRED', when: 'missing' }],
  }),
} as const;
