import type { BackfillAction, OperationData } from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';
import { useState } from 'preact/hooks';
import { useAction } from '../../api/use-action.js';
import { useRequest } from '../../api/use-request.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { TextField } from '../../components/fields.js';
import { countOf } from '../../components/format.js';
import { Loading } from '../../components/loading.js';
import { StatGrid, timeStat } from '../../components/stat-grid.js';

type Backfill = OperationData<'management.embeddings.backfill.get'>['backfill'];

function BackfillProgress({ backfill }: { backfill: Backfill }) {
  const done = backfill.total === 0 ? 1 : backfill.embedded / backfill.total;
  return (
    <div class="backfill-progress">
      <progress
        class="backfill-progress__bar"
        max={Math.max(1, backfill.total)}
        value={backfill.total === 0 ? 1 : backfill.embedded}
        aria-label="Backfill progress"
      />
      <p>
        <strong>{Math.floor(done * 100)} %</strong>: {backfill.embedded.toLocaleString()} of{' '}
        {countOf(backfill.total, 'memory', 'memories')} {backfill.total === 1 ? 'has' : 'have'} vectors of{' '}
        <code>{backfill.modelId}</code>.
      </p>
    </div>
  );
}

/** Embedding backfill progress (management/embeddings/backfill) with Run one batch, Pause and Resume. */
export function BackfillPanel() {
  const status = useRequest((client, signal) => client.management.embeddings.backfill.get({}, { signal }), []);
  const [batchSize, setBatchSize] = useState('100');
  const [message, setMessage] = useState<string | null>(null);
  const act = useAction((client, action: BackfillAction) =>
    action === 'run'
      ? client.management.embeddings.backfill.run({ batchSize: Number(batchSize) })
      : client.management.embeddings.backfill[action]({}),
  );
  const run = async (action: BackfillAction) => {
    setMessage(null);
    const result: OperationData<'management.embeddings.backfill.post'> | undefined = await act.run(action);
    if (result === undefined) return;
    setMessage(result.message);
    status.reload();
  };
  const backfill = status.data?.backfill;
  return (
    <section class="panel stack" aria-labelledby="backfill-title" aria-busy={status.loading}>
      <h2 id="backfill-title">Embedding backfill</h2>
      <p class="muted">
        Embeds the memories of the scope in the header that lack vectors of the selected model, one batch per run.
      </p>
      {status.error === undefined ? null : (
        <ErrorPanel error={status.error} title="Could not read the backfill" onRetry={status.reload} />
      )}
      {backfill === undefined ? (
        status.loading ? (
          <Loading label="Loading the backfill" />
        ) : null
      ) : (
        <>
          <BackfillProgress backfill={backfill} />
          <StatGrid
            label="Backfill status"
            stats={[
              { name: 'State', value: <span class={`status status--${backfill.state}`}>{backfill.state}</span> },
              { name: 'Remaining', value: backfill.remaining },
              { name: 'Failed', value: backfill.failed },
              backfill.lastRunAt === null
                ? { name: 'Last run', value: 'never' }
                : timeStat('Last run', backfill.lastRunAt),
            ]}
          />
          {backfill.lastError === null ? null : (
            <p class="warning-note">
              Last error: <code>{backfill.lastError}</code>
            </p>
          )}
        </>
      )}
      <div class="backfill-actions">
        <TextField
          label="Batch size"
          name="batchSize"
          type="number"
          min={LIMITS.backfillBatchSize.min}
          max={LIMITS.backfillBatchSize.max}
          value={batchSize}
          onValue={setBatchSize}
        />
        <div class="actions">
          <button
            type="button"
            class="button button--primary"
            disabled={act.pending || backfill?.paused === true}
            onClick={() => void run('run')}
          >
            Run one batch
          </button>
          <button
            type="button"
            class="button"
            disabled={act.pending || backfill === undefined || backfill.paused}
            onClick={() => void run('pause')}
          >
            Pause
          </button>
          <button
            type="button"
            class="button"
            disabled={act.pending || backfill === undefined || !backfill.paused}
            onClick={() => void run('resume')}
          >
            Resume
          </button>
        </div>
      </div>
      {act.error === undefined ? null : <ErrorPanel error={act.error} title="The backfill action failed" />}
      {message === null ? null : (
        <p class="success-note" role="status">
          {message}
        </p>
      )}
    </section>
  );
}
