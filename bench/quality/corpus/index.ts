import { contradictionCases } from './contradiction.js';
import { duplicateCases } from './duplicate.js';
import { lookalikeCases } from './lookalike.js';
import { paraphraseCases } from './paraphrase.js';
import { updateCases } from './update.js';

export { fillersFor } from './filler.js';
export { timelines } from './time.js';

/** Every pair case, in report order. */
export const pairCorpus = [
  ...duplicateCases,
  ...paraphraseCases,
  ...updateCases,
  ...contradictionCases,
  ...lookalikeCases,
];
