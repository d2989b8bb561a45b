// Replies that carry no information of their own: worth counting as a turn, not worth keeping.
const FILLER =
  /^(ok(ay)?|k|thanks?( you)?|thx|ty|yes|no|yep|nope|sure|cool|great|nice|got it|hi|hello|hey|bye|(you're|you are) welcome|no problem|np|anytime)[.!?\s]*$/i;

/** Whether a message is substantive enough to keep under `checkpoint: 'meaningful'`: not empty and not filler. */
export function isMeaningful(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && !FILLER.test(trimmed);
}
