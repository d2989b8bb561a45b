const MAX_TURNS = 128;
const TURN_TTL_MS = 10 * 60_000;

/**
 * The turns a middleware is serving, by turn key: each user turn's work (context, session, capture) is done once and
 * shared by the steps of its tool loop. Bounded in count and age, so a long-lived middleware does not grow.
 */
export function createTurnCache<Turn>(now: () => number = Date.now) {
  const turns = new Map<string, { turn: Turn; createdAt: number }>();
  return {
    /**
     * The turn with this key, made by `create` when there is none, when it is older than ten minutes, or when
     * `reuse` says the cached one is over (the same words sent again as a new turn).
     */
    getOrCreate(key: string, create: () => Turn, reuse: (turn: Turn) => boolean = () => true): Turn {
      const cached = turns.get(key);
      if (cached !== undefined && now() - cached.createdAt < TURN_TTL_MS && reuse(cached.turn)) return cached.turn;
      const turn = create();
      turns.delete(key);
      turns.set(key, { turn, createdAt: now() });
      if (turns.size > MAX_TURNS) turns.delete(turns.keys().next().value as string);
      return turn;
    },
    /** Forgets a turn, so its next call prepares it again. */
    delete(key: string): void {
      turns.delete(key);
    },
  };
}

/** A turn cache of `createTurnCache`. */
export type TurnCache<Turn> = ReturnType<typeof createTurnCache<Turn>>;
