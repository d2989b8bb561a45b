import type { PageProps } from '../../pages.js';
import { SkillFileList } from './skill-file-list.js';
import { SkillFileView } from './skill-file-view.js';

/**
 * Skill files: `/console/skill-files` lists them and creates one; `/console/skill-files/<path>` shows one (content,
 * title, use count) to edit or delete.
 */
export function SkillFilesPage({ subPath, searchParams }: PageProps) {
  // A path is one encoded segment (`skills%2Fdeploy.md`); a typed `/skills/deploy.md` works too.
  const path = subPath.join('/');
  return path === '' ? (
    <SkillFileList deletedPath={searchParams.get('deleted')} />
  ) : (
    <SkillFileView key={path} path={path} />
  );
}
