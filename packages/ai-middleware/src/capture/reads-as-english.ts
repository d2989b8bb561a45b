import { wordsOf } from './sentences.js';

const wordSet = (lines: string[]) => new Set(lines.join(' ').split(' '));

// Frequent English words: function words, and the words of short chat messages ("take care!", "sounds great").
const ENGLISH = wordSet([
  'the and you your my i it that this with what how our are they their there them have been would could should',
  'will can not just about from more really like thanks thank yes please some very much has had who which when',
  "where any its me we us of to for is in on at be do don't can't won't so but or if all get got see take care",
  'bye later soon wait good great cool nice awesome sounds agreed totally definitely sure okay ok hi hey hello never',
]);
// Frequent function words of German, French, Spanish, Italian, Portuguese and Dutch that English does not use.
const OTHER_LATIN = wordSet([
  'ich du und der die das ist nicht ein eine mit auf für wir mein meine sie es bin habe zu den dem auch',
  "je tu et le la les est pas une des du mon ma mes nous vous suis avec pour dans que qui ce c'est j'ai",
  'yo el los las y un una mi mis por para con soy estoy tengo muy pero lo se del en',
  'io il gli e è della di ma sono ho non mio mia che',
  'eu o os um uma meu minha não com sou tenho da',
  'ik het een van mijn niet voor ben heb wij zijn ook dat',
]);

/**
 * Whether the capture's sentence rules, which are written for English, can read a message: it is written mostly in
 * Latin letters, has a frequent English word, and has at least as many of them as frequent function words of the
 * other languages most often written in Latin letters. When in doubt, it is not read as English.
 */
export function readsAsEnglish(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = letters.filter((letter) => /\p{Script=Latin}/u.test(letter)).length;
  if (latin * 2 < letters.length) return false;
  let english = 0;
  let other = 0;
  for (const word of wordsOf(text)) {
    if (ENGLISH.has(word)) english += 1;
    else if (OTHER_LATIN.has(word)) other += 1;
  }
  return english > 0 && english >= other;
}
