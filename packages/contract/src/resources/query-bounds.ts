import { COUNT, WEEKDAYS } from './calendar.js';
import { type TimeSpan, unitAround } from './query-dates.js';
import type { Found } from './query-spans.js';

// The words around the dates of a query that bound or join them ("before May 8", "between A and B").

/** Words before a date that make it a bound or a neighbour: "before May 8", "the week after 3 June". */
const BOUND = /\b(before|prior\s+to|earlier\s+than|until|till|by|after|later\s+than|since)\s+$/i;
const UNIT = new RegExp(
  `\\b(?:(?:in|during|on|over)\\s+)?(?:the\\s+)?(?:(first|second|third|fourth|last|${COUNT})\\s+)?(days?|weeks?|weekends?|months?|years?|${WEEKDAYS.join('|')})\\s+(before|after|of)\\s+$`,
  'i',
);
const PLAIN =
  /\b(?:in|during|on|at|around|over|of|within|from|(?:in\s+|at\s+)?(?:the\s+)?(?:beginning|start|end|middle)\s+of|early|mid|late)[-\s]+$/i;
const BETWEEN = /\b(?:between|from)\s+$/i;
/** What joins the two dates of "between A and B" or "from A to B". */
const JOIN = /^\s+(?:and|to|until|till|through)\s+$/i;

/** A date span widened by the words before it ("before", "the week after", "in"); `start` moves over them. */
export function withLead(query: string, atom: Found & { span: TimeSpan }): Found {
  const before = query.slice(0, atom.start);
  const unit = UNIT.exec(before);
  if (unit !== null) {
    const [, qualifier, name = 'day', relation = 'of'] = unit;
    const span = unitAround(name, relation.toLowerCase(), atom.span, qualifier?.toLowerCase());
    return { ...atom, start: unit.index, span };
  }
  const bound = BOUND.exec(before);
  if (bound !== null) {
    const word = (bound[1] ?? '').toLowerCase();
    // "since May" holds May, "after May" starts when it ends; "by / until May 8" holds May 8, "before" stops short.
    const span =
      word === 'since'
        ? { from: atom.span.from, to: Number.POSITIVE_INFINITY }
        : /^(after|later)/.test(word)
          ? { from: atom.span.to, to: Number.POSITIVE_INFINITY }
          : { from: Number.NEGATIVE_INFINITY, to: /^(by|until|till)/.test(word) ? atom.span.to : atom.span.from };
    // A bound named without a year is taken in the request's year: an open stretch has no "any year".
    return { ...atom, start: bound.index, span: { ...span, everyYear: false } };
  }
  const plain = PLAIN.exec(before);
  return plain === null ? atom : { ...atom, start: plain.index };
}

/** "between A and B", "from A to B": one stretch from A's start to B's end; a side without a year takes the other's. */
export function joinBetween(query: string, spans: Found[]): Found[] {
  const joined: Found[] = [];
  for (let index = 0; index < spans.length; index += 1) {
    const first = spans[index];
    const second = spans[index + 1];
    if (
      first?.span !== undefined &&
      second?.span !== undefined &&
      BETWEEN.test(query.slice(0, first.start)) &&
      JOIN.test(query.slice(first.end, second.start))
    ) {
      const shift = (span: TimeSpan, other: TimeSpan) =>
        span.everyYear && !other.everyYear ? yearOf(span, new Date(other.from).getUTCFullYear()) : span;
      const from = shift(first.span, second.span);
      const to = shift(second.span, first.span);
      const start = BETWEEN.exec(query.slice(0, first.start))?.index ?? first.start;
      const everyYear = from.everyYear && to.everyYear;
      joined.push({
        start,
        end: second.end,
        span: { from: Math.min(from.from, to.from), to: Math.max(from.to, to.to), everyYear },
      });
      index += 1;
    } else if (first !== undefined) joined.push(first);
  }
  return joined;
}

/** A span named without a year, moved to `year`. */
function yearOf(span: TimeSpan, year: number): TimeSpan {
  const shift = (time: number) => {
    const date = new Date(time);
    return Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
  };
  return { from: shift(span.from), to: shift(span.from) + (span.to - span.from), everyYear: false };
}
