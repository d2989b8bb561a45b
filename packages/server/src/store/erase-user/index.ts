export { type DatabaseErasure, type ErasedIds, eraseFromDatabase, zeroCounts } from './erase-database.js';
export { eraseIdempotentAnswers } from './erase-idempotency.js';
export { eraseSkillMirrors, userMirrorFolder } from './erase-mirror.js';
export { type ErasureTarget, erasePerson } from './erase-person.js';
export { eraseStatements } from './erase-statements.js';
export { type SweptCounts, sweepLateWrites } from './sweep-late-writes.js';
