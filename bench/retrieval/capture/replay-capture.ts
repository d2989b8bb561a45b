import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { type CaptureEvent, memoryMiddleware } from '../../../packages/ai-middleware/src/index.js';
import type { InProcessServer } from '../in-process-server.js';
import type { Conversation, TurnMemory } from '../locomo.js';
import type { CaptureCounts } from './capture-counts.js';
import { pairTurns } from './pair-turns.js';
import { turnOfMemory } from './turn-of-memory.js';

/** Earlier messages of the session sent with each user message: a chat's shape, without a quadratic replay. */
const HISTORY_MESSAGES = 4;

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The message a turn becomes: its text, and with `captions` the image caption as the direct import words it. */
function messageOf(turn: TurnMemory, captions: boolean): string {
  return captions && turn.caption !== null ? `${turn.text} (image: ${turn.caption})` : turn.text;
}

/**
 * Replays a conversation through `memoryMiddleware({ capture: 'turns' })` and a mock model that answers with the
 * other speaker's next turn (see `pairTurns`), into its own tenant; each session is one chat, each user message is
 * sent with the session's last few messages, and the capture is awaited after each call. Each stored memory is mapped
 * to the sent turn it was taken from (`turnOfMemory`). Returns the stored memories' dialog ids by memory id, and adds
 * to `counts`.
 */
export async function replayCapture(input: {
  server: InProcessServer;
  conversation: Conversation;
  tenantId: string;
  captions: boolean;
  counts: CaptureCounts;
  onTurn: () => void;
}): Promise<Map<string, string>> {
  const { server, conversation, tenantId, captions, counts } = input;
  const started = performance.now();
  const events: CaptureEvent[] = [];
  const middleware = memoryMiddleware({
    client: { ...server.clientOptions, maxRetries: 0 },
    scope: { tenantId },
    capture: 'turns',
    onCapture: (event) => events.push(event),
    onError: (_error, { operation }) => {
      counts.errors[operation] = (counts.errors[operation] ?? 0) + 1;
    },
  });
  const sessions = pairTurns(conversation.turns);
  const answers = sessions.flatMap((session) => session.pairs.map((pair) => pair.answer));
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: answers.map((answer) => ({
        content: answer === undefined ? [] : [{ type: 'text' as const, text: messageOf(answer, captions) }],
        finishReason: { unified: 'stop' as const, raw: undefined },
        usage: USAGE,
        warnings: [],
      })),
    }),
    middleware,
  });
  const wordingOf = (turn: TurnMemory) => messageOf(turn, captions);
  const diaIdOf = new Map<string, string>();
  for (const { pairs } of sessions) {
    // Each message with its turn, to map what capture stored back to the turn it was taken from.
    const history: { message: ModelMessage; turn: TurnMemory }[] = [];
    for (const { user, answer } of pairs) {
      const userText = messageOf(user, captions);
      const answerText = answer === undefined ? '' : messageOf(answer, captions);
      const before = events.length;
      const sent = history.slice(-HISTORY_MESSAGES);
      const sentAnswers = sent
        .filter(({ message }) => message.role === 'assistant')
        .map(({ turn }) => turn)
        .reverse();
      await generateText({
        model,
        messages: [...sent.map(({ message }) => message), { role: 'user', content: userText }],
      });
      await middleware.flush();
      counts.calls += 1;
      if (answer === undefined) counts.unanswered += 1;
      const turnEvents = events.slice(before);
      if (turnEvents.length === 0) counts.uncaptured += 1;
      for (const event of turnEvents) {
        counts.duplicates += event.duplicates;
        const fromUser = event.added.filter((memory) => memory.content.startsWith('User: ')).length;
        if (fromUser === 0 && event.duplicates === 0) counts.leftOut += 1;
        counts.accepted += event.added.length - fromUser;
        for (const memory of event.added) {
          counts.stored += 1;
          const diaId = turnOfMemory(memory.content, { user, answers: sentAnswers }, wordingOf);
          if (diaId === undefined) counts.unmapped += 1;
          else diaIdOf.set(memory.id, diaId);
        }
      }
      history.push({ message: { role: 'user', content: userText }, turn: user });
      if (answer !== undefined) history.push({ message: { role: 'assistant', content: answerText }, turn: answer });
      input.onTurn();
      if (answer !== undefined) input.onTurn();
    }
  }
  counts.replayMs += Math.round(performance.now() - started);
  return diaIdOf;
}
