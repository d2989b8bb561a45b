import type { EmbeddingRegistry } from '../embeddings/registry.js';

/** How long one check may take before it counts as failed (a probe must answer quickly). */
const CHECK_TIMEOUT_MS = 2_000;
/** How long `/ready` waits for a first encoder load before it answers `loading` (the load goes on). */
const ENCODER_WAIT_MS = 1_000;

/** A check's outcome. No message: a database error may name a path or a host, and a probe needs none. */
export type CheckStatus = 'ok' | 'failed' | 'loading' | 'not_required';

/** The answer of `GET /ready`. */
export interface ReadinessReport {
  ready: boolean;
  checks: { controlDatabase: CheckStatus; databaseWorkers: CheckStatus; encoder: CheckStatus };
}

/** What readiness looks at. */
export interface ReadinessSources {
  /** Runs `SELECT 1` on the control database. */
  pingControlDatabase: () => Promise<unknown>;
  /** Has every database worker thread answer. */
  pingDatabaseWorkers: () => Promise<unknown>;
  registry: EmbeddingRegistry;
  /** The workspace default embedding model (MEMORY_EMBEDDING_MODEL). */
  embeddingModel: string;
}

/** Whether `work` settles without error within `timeoutMs`. */
async function answers(work: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      work().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness (`GET /ready`): the control database answers `SELECT 1`, every database worker thread answers, and the
 * default embedding model, when it is a local one, has loaded (a remote model is not called: `not_required`). The
 * first probe starts the model's load in the background and answers `loading` until it is done, so a server behind a
 * probe is sent traffic once its first hybrid query no longer waits for the model. Once loaded, the encoder stays
 * ready while the registry holds the model available (a thread retired when idle reloads it on demand).
 */
export class Readiness {
  private encoderLoad: Promise<boolean> | undefined;
  private encoderLoaded = false;

  constructor(private readonly sources: ReadinessSources) {}

  /** Runs every check at once. */
  async check(): Promise<ReadinessReport> {
    const [controlDatabase, databaseWorkers, encoder] = await Promise.all([
      answers(this.sources.pingControlDatabase, CHECK_TIMEOUT_MS),
      answers(this.sources.pingDatabaseWorkers, CHECK_TIMEOUT_MS),
      this.encoder(),
    ]);
    const checks = {
      controlDatabase: controlDatabase ? 'ok' : 'failed',
      databaseWorkers: databaseWorkers ? 'ok' : 'failed',
      encoder,
    } satisfies ReadinessReport['checks'];
    const ready = Object.values(checks).every((status) => status === 'ok' || status === 'not_required');
    return { ready, checks };
  }

  private async encoder(): Promise<CheckStatus> {
    const { registry, embeddingModel } = this.sources;
    const descriptor = registry.describe(embeddingModel);
    if (descriptor === undefined || !descriptor.available) return 'failed';
    if (!descriptor.local) return 'not_required';
    if (this.encoderLoaded) return 'ok';
    this.encoderLoad ??= registry.embed(embeddingModel, ['readiness']).then(
      () => {
        this.encoderLoaded = true;
        return true;
      },
      () => {
        // A failed load is tried again by the next probe (the registry marks a model that cannot load unavailable).
        this.encoderLoad = undefined;
        return false;
      },
    );
    const load = this.encoderLoad;
    const loaded = await answers(async () => {
      if (!(await load)) throw new Error('encoder load failed');
    }, ENCODER_WAIT_MS);
    if (loaded) return 'ok';
    return this.encoderLoad === undefined ? 'failed' : 'loading';
  }
}
