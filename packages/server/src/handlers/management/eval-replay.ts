import { scoreReplay } from '../../evaluation/eval-replay.js';
import type { Handler } from '../../pipeline/handler-types.js';

/** `POST management/memory/eval/replay`: scores the given cases (nothing is read or written), echoing the scope. */
export const evalReplay: Handler<'management.memory.evalReplay'> = async (input, context) => ({
  scope: context.scope,
  ...scoreReplay(input),
});
