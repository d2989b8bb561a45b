import { LIMITS } from '@memory-service/contract';

/** What each memory tool tells the model it does; kept in one place so the wording stays consistent. */
export const TOOL_DESCRIPTIONS = {
  getContext:
    'Get the memory context for a topic: standing rules, the most relevant memories (with id, type and date), ' +
    'conflicting memories and skill files. Use it before answering questions about the user, their project or ' +
    'earlier decisions.',
  searchMemories:
    'Search stored memories by text. Returns matching memories with their id, type, date and score, most relevant first.',
  addMemory:
    'Store a new memory: a durable fact, decision or note worth remembering in later conversations. ' +
    'Write one self-contained statement per memory.',
  editMemory:
    'Change an existing memory by id (from getContext, searchMemories or listMemories): its content, type, tags ' +
    'or category. Use it when the user corrects something that is remembered.',
  forgetMemory: 'Forget (delete) one memory by id, when the user asks to forget it or it is wrong.',
  listMemories: 'List stored memories, newest first, optionally by type, layer or tags.',
  bulkForgetMemories:
    'Forget many memories at once by type, tags, age or a content pattern (* and ? wildcards), or all. ' +
    'Runs as a dry run by default and returns what would be forgotten; set dryRun to false only after the user confirms.',
  upsertSkillFile:
    'Create or replace a skill file: a named Markdown document (a procedure, a how-to) stored at a path like ' +
    '"deploy/release.md". The first heading becomes its title.',
  listSkillFiles: 'List skill files (path, title, how often used). Their content comes with getContext.',
  startSession: 'Start a working session to record a conversation or task. Returns the sessionId to pass later.',
  checkpointSession:
    'Record an event in an open session: a message, decision, note or summary. Needs the sessionId from startSession.',
  endSession:
    'End an open session (status closed, or compacted when its summary replaces it). A snapshot with its transcript is kept.',
} as const;

/** Descriptions of tool parameters the model fills in. */
export const PARAMETER_DESCRIPTIONS = {
  query: `What to look for, in plain words (at most ${LIMITS.query.max} characters).`,
  limit: 'How many results to return at most.',
  contextMode: 'all (default), working (this session), long_term, or rules_only.',
  memoryId: 'The id of the memory, as shown in earlier results.',
  content: 'The memory itself: one self-contained statement.',
  memoryType: 'rule (standing instruction), decision, fact, note or skill.',
  layer: 'rule, working (short-lived, this session) or long_term.',
  writableMemoryType: 'decision, fact, note or skill.',
  writableLayer: 'working (short-lived, this session) or long_term.',
  tags: 'Short topic labels.',
  category: 'One category name, e.g. "billing".',
  filterTags: 'Only memories with any of these tags.',
  olderThanDays: 'Only memories older than this many days.',
  pattern: 'Content pattern with * (any text) and ? (one character) wildcards.',
  all: 'Forget every memory in scope; cannot be combined with filters.',
  dryRun: 'true (default) only previews what would be forgotten; false really forgets.',
  skillPath: 'Path of the skill file, e.g. "deploy/release.md".',
  skillContent: 'The whole Markdown content of the skill file.',
  sessionTitle: 'A short title for the session.',
  sessionId: 'The session id returned by startSession.',
  checkpointContent: 'What happened, in words.',
  checkpointRole: 'Who it came from: user, assistant, system or tool.',
  checkpointKind: 'message, summary, decision, tool_call, tool_result or note.',
  endStatus: 'closed (default) or compacted.',
} as const;

/**
 * Rules are injected into every prompt as instructions to always follow, so the model may write them only when the
 * app opts in (`memoryTools({ allowRuleWrites: true })`); these texts say so to the model.
 */
export const RULE_WRITE_TEXTS = {
  /** Appended to addMemory's description when rule writes are allowed. */
  allowedHint: ' Use type "rule" for standing instructions.',
  /** The tool error of a rule write that is not allowed. */
  refused:
    'Rule memories are set by the app, not by the model: this tool may not write type or layer "rule", nor edit or forget a rule.',
} as const;
