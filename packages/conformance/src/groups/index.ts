import { contextGroup } from './context.js';
import { envelopeGroup } from './envelope.js';
import { errorsGroup } from './errors.js';
import { graphGroup } from './graph.js';
import type { CheckGroup } from './group.js';
import { isolationGroup } from './isolation.js';
import { managementGroup } from './management.js';
import { mcpGroup } from './mcp.js';
import { memoriesGroup } from './memories.js';
import { searchGroup } from './search.js';
import { sessionsGroup } from './sessions.js';
import { skillsGroup } from './skills.js';

/** Every group, in the order a run checks them. */
export const checkGroups: readonly CheckGroup[] = [
  envelopeGroup,
  memoriesGroup,
  contextGroup,
  searchGroup,
  graphGroup,
  sessionsGroup,
  skillsGroup,
  managementGroup,
  mcpGroup,
  errorsGroup,
  isolationGroup,
];

export type { CheckGroup } from './group.js';
