import { ApiError } from '../api-error.js';
import { buildProcedure } from '../sessions/procedure.js';
import {
  assertMirrorable,
  mirrorSkillFile,
  removeSkillFileMirror,
  type SkillFileMirror,
} from '../skills/file-mirror.js';
import { toSessionEvent } from '../store/session-rows.js';
import { SkillStore, toSkillFile } from '../store/skills.js';
import { requireVisibleSession, sessionStoreOf } from './sessions.js';
import type { Handler, HandlerContext } from './types.js';

/** Said when the row is saved but its file-mode mirror could not be written (the server log says why). */
const MIRROR_NOT_WRITTEN = '; its file mirror could not be written (see the server log)';

async function skillStoreOf(context: HandlerContext): Promise<SkillStore> {
  return new SkillStore((await context.tenant()).database);
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

/** `POST /skills/files/upsert`: creates or updates the file at a path in the request's exact scope (200 both ways). */
export const upsertSkillFile: Handler<'skills.upsert'> = async (input, context) => {
  const mirror = mirrorOf(context);
  await assertMirrorable(mirror, input.path);
  const store = await skillStoreOf(context);
  const { row, created } = await store.upsert({ path: input.path, content: input.content }, context.scope, context.now);
  const mirrored = await mirrorSkillFile(mirror, input.path, input.content);
  return {
    skillFile: toSkillFile(row),
    created,
    message: `Skill file ${input.path} ${created ? 'created' : 'updated'}${mirrored ? '' : MIRROR_NOT_WRITTEN}`,
  };
};

/** `POST /skills/files/list`: live files visible to the request's scope, ordered by path. */
export const listSkillFiles: Handler<'skills.list'> = async (input, context) => {
  const store = await skillStoreOf(context);
  const skillFiles = (await store.list(context.scope, input.limit)).map(toSkillFile);
  return { skillFiles, count: skillFiles.length };
};

/** `POST /skills/files/delete`: soft-deletes the visible file at a path (own scope first, then shared). */
export const deleteSkillFile: Handler<'skills.delete'> = async (input, context) => {
  const store = await skillStoreOf(context);
  const deleted = await store.softDelete(input.path, context.scope, context.now);
  if (!deleted) throw new ApiError('SKILL_FILE_NOT_FOUND', `No skill file at ${input.path} is visible in this scope`);
  await removeSkillFileMirror(mirrorOf(context), input.path);
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
  const { row, created } = await skills.upsert(
    {
      path: input.path,
      content: procedure.content,
      metadata: { kind: 'procedure', procedureKey: procedure.procedureKey, stepCount: procedure.steps.length, source },
      source: 'promote',
    },
    context.scope,
    context.now,
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
