import { describe, expect, it } from 'vitest';
import { readAttributeValues, rewritePhrases } from './attribute-values.js';
import { canonWord, oppositeStates } from './word-relations.js';

describe('word relations', () => {
  it('folds synonyms, familiar kinship words and clippings to one word', () => {
    expect(canonWord('departs')).toBe(canonWord('leaves'));
    expect(canonWord('began')).toBe(canonWord('starts'));
    expect(canonWord('grandpa')).toBe(canonWord('grandfather'));
    expect(canonWord('mum')).toBe(canonWord('mother'));
    expect(canonWord('repo')).toBe(canonWord('repository'));
    expect(canonWord('leaves')).not.toBe(canonWord('arrives'));
    expect(canonWord('mother')).not.toBe(canonWord('grandmother'));
  });

  it('knows opposite states, listed or made with a negating prefix', () => {
    for (const [state, opposite] of [
      ['approved', 'rejected'],
      ['paid', 'unpaid'],
      ['legal', 'illegal'],
      ['available', 'unavailable'],
      ['insured', 'uninsured'],
      ['locked', 'unlocked'],
    ])
      expect(oppositeStates(state ?? '', opposite ?? ''), `${state} / ${opposite}`).toBe(true);
    // A prefix on a word that is no adjective or participle makes another word, not an opposite.
    for (const [left, right] of [
      ['form', 'inform'],
      ['stall', 'install'],
      ['come', 'income'],
      ['paid', 'paid'],
      ['approved', 'paid'],
    ])
      expect(oppositeStates(left ?? '', right ?? ''), `${left} / ${right}`).toBe(false);
  });

  it('reads ages, which way a thing faces and handedness as values of one kind', () => {
    const values = (text: string) =>
      readAttributeValues(text.toLowerCase().replace(/-/g, ' ').split(' ')).map(
        ({ kind, value }) => `${kind}=${value}`,
      );
    expect(values('grandpa is 78 years old')).toEqual(['#age=78']);
    expect(values('my grandfather is 81')).toEqual(['#age=81']);
    expect(values('our puppy is eleven weeks old')).toEqual([]);
    expect(values('i have worked here for 12 years')).toEqual([]);
    expect(values('the balcony faces west')).toEqual(['<direction>=west']);
    expect(values('the balcony is east facing')).toEqual(['<direction>=east']);
    expect(values('the north entrance is closed')).toEqual([]);
    expect(values('my nephew is left handed')).toEqual(['<side>=left']);
    expect(values('turn left at the bank')).toEqual([]);
  });

  it('rewrites a phrase of one relation to one wording', () => {
    expect(rewritePhrases('the bakery is open until 6 pm'.split(' ')).join(' ')).toBe('the bakery is closes at 6 pm');
    expect(rewritePhrases('the studio is based in lyon'.split(' ')).join(' ')).toBe('the studio is lives in lyon');
    expect(rewritePhrases('the film is based on a novel'.split(' ')).join(' ')).toBe('the film is based on a novel');
  });
});
