import { assert, CheckSkipped, expectError, expectShape, expectSuccess, need } from '../expect.js';
import {
  ContextShape,
  SkillDeleteShape,
  SkillListShape,
  SkillPromoteShape,
  SkillUpsertShape,
  SnapshotDataShape,
} from '../shapes.js';
import { type CheckGroup, marker } from './group.js';
import { endedSession } from './sessions.js';

const UPSERT = 'Endpoints › POST /skills/files/upsert';
const LIST = 'Endpoints › POST /skills/files/list';
const DELETE = 'Endpoints › POST /skills/files/delete';
const PROMOTE = 'Endpoints › POST /skills/files/promote';
const STATES = 'States and transitions › Skill file';

/** Whether a skill file list (elements' fields are not shown in the contract) holds a path: by `path`, else anywhere. */
function listsPath(skillFiles: unknown[], path: string): boolean {
  return skillFiles.some((file) => {
    const record = file as Record<string, unknown>;
    return 'path' in record ? record.path === path : JSON.stringify(record).includes(path);
  });
}

/** Skill files: upsert (created true/false), list, delete, promote from a snapshot (201/200) and its error codes. */
export const skillsGroup: CheckGroup = {
  id: 'skills',
  title: 'Skill files',
  summary:
    'skills/files upsert (created true, then false), list (limit), delete (soft), context/get includeSkillFiles, promote from a session snapshot (201 new, 200 update) and SESSION_ID_REQUIRED, SKILL_FILE_PATH_REQUIRED, SESSION_SNAPSHOT_NOT_FOUND.',
  async run(t, env) {
    const scope = env.scope();
    const name = marker('skillx');
    const path = `conformance/${name}.md`;
    const content = `# ${name}\n\n1. Run the tests\n2. Deploy`;

    const created = await t.check(
      'upsert-create',
      'upsert of a new path answers skillFile, created: true, message',
      `${UPSERT}; ${STATES}`,
      async () => {
        const data = expectShape(
          SkillUpsertShape,
          expectSuccess(await env.post('/skills/files/upsert', { path, content, scope }), [200, 201]),
          'upsert data',
        );
        assert(data.created === true, 'created is false for a new path');
        return true;
      },
    );

    await t.check(
      'upsert-update',
      'upsert of an existing path answers created: false',
      `${UPSERT}; ${STATES}`,
      async () => {
        need(created, 'the first upsert');
        const data = expectShape(
          SkillUpsertShape,
          expectSuccess(
            await env.post('/skills/files/upsert', { path, content: `${content}\n3. Verify`, scope }),
            [200, 201],
          ),
          'upsert data',
        );
        assert(data.created === false, 'created is true for an existing path');
      },
    );

    await t.check('list', 'skills/files/list answers skillFiles[] and count, with the file', LIST, async () => {
      need(created, 'the upsert');
      const data = expectShape(
        SkillListShape,
        expectSuccess(await env.post('/skills/files/list', { scope })),
        'list data',
      );
      assert(listsPath(data.skillFiles, path), 'the upserted file is not listed');
    });

    await t.check('list-limit', 'skills/files/list honours limit', LIST, async () => {
      need(created, 'the upsert');
      await env.post('/skills/files/upsert', { path: `conformance/${name}-second.md`, content: 'Second file', scope });
      const data = expectShape(
        SkillListShape,
        expectSuccess(await env.post('/skills/files/list', { limit: 1, scope })),
        'list data',
      );
      assert(data.skillFiles.length === 1, `limit 1 returned ${data.skillFiles.length} files`);
    });

    await t.check(
      'context-skill-files',
      'context/get returns skill files, and none with includeSkillFiles false',
      'Endpoints › POST /context/get (includeSkillFiles)',
      async () => {
        need(created, 'the upsert');
        const body = { query: name, scope };
        const withFiles = expectShape(
          ContextShape,
          expectSuccess(await env.post('/context/get', body)),
          'context data',
        );
        assert(withFiles.skillFiles.length > 0, 'skillFiles[] is empty while the scope has skill files');
        const without = expectShape(
          ContextShape,
          expectSuccess(await env.post('/context/get', { ...body, includeSkillFiles: false })),
          'context data',
        );
        assert(without.skillFiles.length === 0, `includeSkillFiles false returned ${without.skillFiles.length} files`);
      },
    );

    await t.check(
      'delete',
      'skills/files/delete answers path, deleted: true, message, and the file is no longer listed',
      `${DELETE}; ${STATES}`,
      async () => {
        need(created, 'the upsert');
        const data = expectShape(
          SkillDeleteShape,
          expectSuccess(await env.post('/skills/files/delete', { path, scope })),
          'delete data',
        );
        assert(data.path === path, `delete answered path ${data.path}`);
        const listed = expectShape(
          SkillListShape,
          expectSuccess(await env.post('/skills/files/list', { scope })),
          'list data',
        );
        assert(!listsPath(listed.skillFiles, path), 'the deleted file is still listed');
      },
    );

    const snapshot = await t.check(
      'promote-setup',
      'a closed session with a snapshot to promote (sessions/start, checkpoint, end, snapshot)',
      'Endpoints › GET /sessions/{sessionId}/snapshot',
      async () => {
        const sessionId = await endedSession(env, scope);
        const response = await env.get(`/sessions/${encodeURIComponent(sessionId)}/snapshot`, env.query());
        const { snapshot: found } = expectShape(SnapshotDataShape, expectSuccess(response), 'snapshot data');
        return { sessionId, snapshotId: found.id, slug: found.slug, createdAt: found.createdAt };
      },
    );

    const promotePath = `conformance/${name}-procedure.md`;
    const promoted = await t.check(
      'promote-create',
      'promote of a snapshot to a new path answers 201: skillFile, created: true, source (sessionId, snapshotId, snapshotSlug, snapshotCreatedAt), message',
      `${PROMOTE}; ${STATES}`,
      async () => {
        const { sessionId, snapshotId, slug, createdAt } = need(snapshot, 'a session snapshot');
        const body = {
          sessionId,
          snapshotId,
          path: promotePath,
          title: 'Release procedure',
          procedureKey: `release-${name}`,
          maxSteps: 5,
          scope,
        };
        const response = await env.post('/skills/files/promote', body);
        if (response.status === 403) {
          expectError(response, { status: 403, code: 'MEMORY_PROCEDURAL_DISABLED' });
          throw new CheckSkipped('procedural skills are disabled on this server (403 MEMORY_PROCEDURAL_DISABLED)');
        }
        const data = expectShape(SkillPromoteShape, expectSuccess(response, 201), 'promote data');
        assert(data.created === true, 'created is false for a new path');
        assert(
          data.source.sessionId === sessionId && data.source.snapshotId === snapshotId,
          'source names another session or snapshot',
        );
        assert(
          data.source.snapshotSlug === slug,
          `source.snapshotSlug is ${JSON.stringify(data.source.snapshotSlug)}, the snapshot's slug ${slug}`,
        );
        assert(
          Date.parse(String(data.source.snapshotCreatedAt)) === Date.parse(createdAt),
          `source.snapshotCreatedAt is ${JSON.stringify(data.source.snapshotCreatedAt)}, the snapshot's createdAt ${createdAt}`,
        );
        return true;
      },
    );

    await t.check(
      'promote-update',
      'promote to an existing path answers 200 with created: false',
      `${PROMOTE}; ${STATES}`,
      async () => {
        need(promoted, 'the first promote');
        const { sessionId, snapshotId } = need(snapshot, 'a session snapshot');
        const body = { sessionId, snapshotId, path: promotePath, title: 'Release procedure v2', maxSteps: 3, scope };
        const data = expectShape(
          SkillPromoteShape,
          expectSuccess(await env.post('/skills/files/promote', body), 200),
          'promote data',
        );
        assert(data.created === false, 'created is true for an existing path');
      },
    );

    await t.check(
      'promote-session-id-required',
      'promote without sessionId answers 400 SESSION_ID_REQUIRED',
      `${PROMOTE}; Errors`,
      async () => {
        need(promoted, 'promote');
        expectError(await env.post('/skills/files/promote', { path: promotePath, title: 'x', scope }), {
          status: 400,
          code: 'SESSION_ID_REQUIRED',
        });
      },
    );

    await t.check(
      'promote-path-required',
      'promote without path answers 400 SKILL_FILE_PATH_REQUIRED',
      `${PROMOTE}; Errors`,
      async () => {
        need(promoted, 'promote');
        const { sessionId, snapshotId } = need(snapshot, 'a session snapshot');
        expectError(await env.post('/skills/files/promote', { sessionId, snapshotId, title: 'x', scope }), {
          status: 400,
          code: 'SKILL_FILE_PATH_REQUIRED',
        });
      },
    );

    await t.check(
      'promote-snapshot-not-found',
      'promote of an unknown snapshot answers 404 SESSION_SNAPSHOT_NOT_FOUND',
      `${PROMOTE}; Errors`,
      async () => {
        need(promoted, 'promote');
        const { sessionId } = need(snapshot, 'a session snapshot');
        const body = { sessionId, snapshotId: crypto.randomUUID(), path: `conformance/${name}-missing.md`, scope };
        expectError(await env.post('/skills/files/promote', body), { status: 404, code: 'SESSION_SNAPSHOT_NOT_FOUND' });
      },
    );
  },
};
