import { seededRandom } from '../../perf/seed-data.js';
import { FACT_TEMPLATES, type Pick, type PlantedFact, type QuestionKind } from './facts.js';
import { FIRST_NAMES } from './names.js';
import { assistantReply, userMessage, type Voice } from './prose.js';
import { TOPICS, type Topic } from './topics.js';

/** One stored message of a generated conversation. */
export interface LongMessage {
  /** `<user>:<session>:<turn>`, the id the scores use. */
  key: string;
  role: 'user' | 'assistant';
  content: string;
  /** When it was said (the session's date, a minute per turn). */
  occurredAt: string;
}

/** A question about a planted fact and the message that states it. */
export interface LongQuestion {
  kind: QuestionKind;
  question: string;
  evidence: string[];
}

/** One user's history: every session's messages in order, and the questions about their planted facts. */
export interface LongUser {
  userId: string;
  messages: LongMessage[];
  questions: LongQuestion[];
}

interface SessionPlan {
  topic: Topic;
  side: Topic;
  turns: number;
  /** Sentences to place in the user turns of this session, by turn index (even: user turns). */
  planted: Map<number, string[]>;
  /** Which fact each planted statement answers, by turn index. */
  facts: Map<number, number[]>;
}

const DAY_MS = 86_400_000;
const START = Date.UTC(2023, 0, 2, 9, 0);

function picker(random: () => number): Pick {
  return <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
}

/** The sessions of one user until they hold `messages` messages: mostly the user's favourite topics. */
function planSessions(pick: Pick, favourites: readonly Topic[], messages: number): SessionPlan[] {
  const sessions: SessionPlan[] = [];
  for (let total = 0; total < messages; ) {
    const turns = Math.min(2 * (4 + Math.floor(pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))), messages - total + 1);
    const topic = pick([0, 1, 2]) === 0 ? pick(TOPICS) : pick(favourites);
    sessions.push({ topic, side: pick(TOPICS), turns, planted: new Map(), facts: new Map() });
    total += turns;
  }
  return sessions;
}

/** The turn indexes of a session's user messages (the even ones). */
function userTurns(session: SessionPlan): number[] {
  return Array.from({ length: Math.ceil(session.turns / 2) }, (_, index) => 2 * index);
}

/** Places a sentence in a user turn of a session on `topic` (any session when the user never talks about it). */
function place(pick: Pick, sessions: readonly SessionPlan[], topic: string, sentence: string, fact?: number): void {
  // Each fact gets a user turn of its own; look-alikes go anywhere on the topic.
  const free = (session: SessionPlan) =>
    userTurns(session).filter((turn) => fact === undefined || !session.facts.has(turn));
  const onTopic = sessions.filter((session) => session.topic.name === topic && free(session).length > 0);
  const session = pick(onTopic.length > 0 ? onTopic : sessions.filter((candidate) => free(candidate).length > 0));
  const turn = pick(free(session));
  session.planted.set(turn, [...(session.planted.get(turn) ?? []), sentence]);
  if (fact !== undefined) session.facts.set(turn, [...(session.facts.get(turn) ?? []), fact]);
}

/**
 * One user's generated history of about `messages` messages (never fewer), from `seed`: the facts and their values
 * depend on the seed and the user only, so a user's questions are the same at every size; the chatter around them
 * grows with the size.
 */
export function generateUser(seed: number, user: number, messages: number): LongUser {
  const userId = `user-${user + 1}`;
  const factPick = picker(seededRandom(seed * 7919 + user));
  const favourites = Array.from({ length: 6 }, () => factPick(TOPICS));
  const friends = Array.from({ length: 6 }, () => factPick(FIRST_NAMES));
  const facts: PlantedFact[] = FACT_TEMPLATES.map((template) => template(factPick));
  const pick = picker(seededRandom(seed * 104_729 + user * 31 + messages));
  const sessions = planSessions(pick, favourites, messages);
  for (const [index, fact] of facts.entries()) {
    place(pick, sessions, fact.topic, fact.statement, index);
    for (const lookAlike of fact.lookAlikes) place(pick, sessions, fact.topic, lookAlike);
  }
  const evidence = new Map<number, string>();
  const out: LongMessage[] = [];
  let day = START;
  for (const [sessionIndex, session] of sessions.entries()) {
    day += (1 + Math.floor(pick([0, 1, 2, 3, 4, 5]))) * DAY_MS;
    const voice: Voice = {
      pick,
      topic: () => (pick([0, 1, 2, 3]) === 0 ? session.side : session.topic),
      friends,
    };
    for (let turn = 0; turn < session.turns; turn += 1) {
      const key = `${userId}:${sessionIndex + 1}:${turn + 1}`;
      const user = turn % 2 === 0;
      const content = user
        ? userMessage(voice, 8 + Math.floor(pick([0, 1, 2, 3, 4, 5, 6])), session.planted.get(turn) ?? [])
        : assistantReply(voice, 4 + Math.floor(pick([0, 1, 2, 3])));
      for (const fact of session.facts.get(turn) ?? []) evidence.set(fact, key);
      out.push({
        key,
        role: user ? 'user' : 'assistant',
        content,
        occurredAt: new Date(day + turn * 60_000).toISOString(),
      });
    }
  }
  const questions = facts.flatMap((fact, index) =>
    fact.questions.map((question) => ({
      kind: question.kind,
      question: question.text,
      evidence: [evidence.get(index)!],
    })),
  );
  return { userId, messages: out, questions };
}

/** `users` generated histories of about `messagesPerUser` messages each. */
export function generateLongCorpus(options: { seed: number; users: number; messagesPerUser: number }): LongUser[] {
  return Array.from({ length: options.users }, (_, user) => generateUser(options.seed, user, options.messagesPerUser));
}
