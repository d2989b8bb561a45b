import { LIMITS } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { buildProcedure } from '../sessions/procedure.js';
import {
  assertMirrorable,
  mirrorSkillFile,
  removeSkillFileMirror,
  type SkillFileMirror,
} from '../skills/file-mirror.js';
import { toSessionEvent } from '../store/session-rows.js';
import { decodeSkillListCursor, encodeSkillListCursor } from '../store/skill-list-cursor.js';
import { type SkillFileRow, type SkillStore, toSkillFile } from '../store/skills.js';
import { requireVisibleSession, sessionStoreOf } from './sessions.js';

/** Said when the row is saved but its file-mode mirror could not be written (the server log says why). */
const MIRROR_NOT_WRITTEN = '; its file mirror could not be written (see the server log)';

async function skillStoreOf(context: HandlerContext): Promise<SkillStore> {
  return (await context.tenant()).skills;
}

/** Where this request's skill files are mirrored in file mode (MEMORY_FILE_MODE_ENABLED). */
function mirrorOf(context: HandlerContext): SkillFileMirror {
  const { config, logger } = context.services;
  return {
    enabled: config.flags.MEMORY_FILE_MODE_ENABLED,
    dataDir: config.dataDir,
    ownerId: context.caller.ownerId,
    scope: context.scope,
    logger,
    requestId: context.requestId,
  };
}

/**
 * Writes a skill file (`SkillStore.upsert`). Only upserts of the same path and scope, each creating the file anew in
 * the instant between another's read and write (a path deleted and rewritten in a tight loop), can keep one from
 * writing: it answers the retryable SERVER_BUSY then, as a full queue does.
 */
async function upsertOrBusy(
  store: SkillStore,
  fields: Parameters<SkillStore['upsert']>[0],
  context: HandlerContext,
): Promise<{ row: SkillFileRow; created: boolean }> {
  const written = await store.upsert(fields, context.scope, context.now);
  if (written !== undefined) return written;
  throw new ApiError('SERVER_BUSY', `Skill file ${fields.path} is being rewritten by other requests; retry`, {
    retryAfterSeconds: 1,
  });
}

/**
 * `POST /skills/files/upsert`: creates or updates the file at a path in the request's exact scope (200 both ways). A
 * request whose scope names a userId writes that user's own file, beside a shared one at the path, never over it.
 */
export const upsertSkillFile: Handler<'skills.upsert'> = async (input, context) => {
  const mirror = mirrorOf(context);
  await assertMirrorable(mirror, input.path);
  const store = await skillStoreOf(context);
  const fields = {
    path: input.path,
    content: input.content,
    ...(input.procedureKey === undefined ? {} : { metadata: { procedureKey: input.procedureKey } }),
  };
  const { row, created } = await upsertOrBusy(store, fields, context);
  const mirrored = await mirrorSkillFile(mirror, input.path, input.content);
  return {
    skillFile: toSkillFile(row),
    created,
    message: `Skill file ${input.path} ${created ? 'created' : 'updated'}${mirrored ? '' : MIRROR_NOT_WRITTEN}`,
  };
};

/**
 * `POST /skills/files/list`: live files visible to the request's scope, ordered by path, a page at a time: at most
 * `limit` whole files within `LIMITS.skillListBytes` of text, from the `cursor` of the page before.
 */
export const listSkillFiles: Handler<'skills.list'> = async (input, context) => {
  const after = input.cursor === undefined ? undefined : decodeSkillListCursor(input.cursor);
  if (after === null) {
    throw new ApiError('INVALID_REQUEST', 'cursor must be the nextCursor of a skills/files/list answer', {
      field: 'cursor',
    });
  }
  const store = await skillStoreOf(context);
  const page = await store.listPage(context.scope, { limit: input.limit, maxBytes: LIMITS.skillListBytes, after });
  const skillFiles = page.rows.map(toSkillFile);
  return {
    skillFiles,
    count: skillFiles.length,
    truncated: page.omitted > 0,
    omitted: page.omitted,
    nextCursor: page.next === null ? null : encodeSkillListCursor(page.next),
  };
};

/**
 * `POST /skills/files/delete`: soft-deletes the file at a path that the scope owns (own scope first). A request whose
 * scope names a userId never deletes a shared file (no userId), which every user reads: 403
 * SKILL_FILE_SHARED_READ_ONLY.
 */
export const deleteSkillFile: Handler<'skills.delete'> = async (input, context) => {
  const store = await skillStoreOf(context);
  const result = await store.softDelete(input.path, context.scope, context.now);
  if (result.outcome === 'shared') {
    throw new ApiError(
      'SKILL_FILE_SHARED_READ_ONLY',
      `Skill file ${input.path} is shared by every user (it has no userId): a request scoped to user '${context.scope.userId}' may read it but not delete it; the app deletes shared skill files with requests without a userId`,
      { path: input.path, userId: context.scope.userId },
    );
  }
  if (result.outcome === 'not-found') {
    throw new ApiError('SKILL_FILE_NOT_FOUND', `No skill file at ${input.path} is visible in this scope`);
  }
  // The mirror of the file deleted, which may be the user's file of every project rather than the request's exact scope.
  const owner = { ...context.scope, userId: result.row.user_id, projectId: result.row.project_id };
  await removeSkillFileMirror({ ...mirrorOf(context), scope: owner }, input.path);
  return { path: input.path, deleted: true, message: `Skill file ${input.path} deleted` };
};

/**
 * `POST /skills/files/promote`: turns a session snapshot (the given one, else the latest) into a procedural skill
 * file at a path in the request's scope: 201 when the file is new, 200 when it replaced one.
 */
export const promoteSkillFile: Handler<'skills.promote'> = async (input, context) => {
  const mirror = mirrorOf(context);
  await assertMirrorable(mirror, input.path);
  const sessions = await sessionStoreOf(context);
  const session = await requireVisibleSession(sessions, input.sessionId, context);
  const snapshot = await sessions.snapshot(session.id, input.snapshotId);
  if (snapshot === undefined) {
    const which = input.snapshotId === undefined ? 'has no snapshot yet' : `has no snapshot ${input.snapshotId}`;
    throw new ApiError('SESSION_SNAPSHOT_NOT_FOUND', `Session ${session.id} ${which}`);
  }
  const events = (await sessions.events(session.id, Number(snapshot.last_event_seq))).map(toSessionEvent);
  const procedure = buildProcedure({
    events,
    sessionId: session.id,
    sessionTitle: session.title,
    snapshotId: snapshot.id,
    snapshotSlug: snapshot.slug,
    snapshotCreatedAt: snapshot.created_at,
    path: input.path,
    title: input.title,
    procedureKey: input.procedureKey,
    maxSteps: input.maxSteps,
  });
  const source = {
    sessionId: session.id,
    snapshotId: snapshot.id,
    snapshotSlug: snapshot.slug,
    snapshotCreatedAt: snapshot.created_at,
  };
  const skills = await skillStoreOf(context);
  const { row, created } = await upsertOrBusy(
    skills,
    {
      path: input.path,
      content: procedure.content,
      metadata: { kind: 'procedure', procedureKey: procedure.procedureKey, stepCount: procedure.steps.length, source },
      source: 'promote',
    },
    context,
  );
  const mirrored = await mirrorSkillFile(mirror, input.path, procedure.content);
  context.setStatus(created ? 201 : 200);
  return {
    skillFile: toSkillFile(row),
    created,
    source,
    message: `Snapshot ${snapshot.slug} promoted to ${input.path} with ${procedure.steps.length} steps${mirrored ? '' : MIRROR_NOT_WRITTEN}`,
  };
};
