import { formatMemoryContext } from '@memory-service/ai-middleware/format';
import type { ContextGetResult } from '@memory-service/client';
import { useRequest } from '../../api/use-request.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorPanel } from '../../components/error-panel.js';
import { Loading } from '../../components/loading.js';
import { PageHeader } from '../../components/page-header.js';
import type { PageProps } from '../../pages.js';
import { consolePath, navigate } from '../../router/router.js';
import { PreviewForm } from './preview-form.js';
import {
  contextInputOf,
  DEFAULT_PREVIEW_REQUEST,
  type PreviewRequest,
  paramsOf,
  requestFromParams,
} from './preview-request.js';
import { RetrievalTrace } from './retrieval-trace.js';
import { memoryInText, ReturnedItems, skillFileInText } from './returned-items.js';
import { SystemMessage } from './system-message.js';

/** Rules, memories and skill files of the bundle that the budgeted text left out. */
function droppedCount(context: ContextGetResult, text: string): number {
  const seen = new Set<string>();
  let dropped = 0;
  for (const memory of [...context.rules, ...context.memories]) {
    if (seen.has(memory.id)) continue;
    seen.add(memory.id);
    if (!memoryInText(text, memory.id)) dropped += 1;
  }
  for (const file of context.skillFiles) if (!skillFileInText(text, file.path)) dropped += 1;
  return dropped;
}

function Preview({ context, request }: { context: ContextGetResult; request: PreviewRequest }) {
  // The middleware's own formatter and budget: this text is what it would put in front of the prompt.
  const text = formatMemoryContext(context, { maxContextTokens: request.maxContextTokens });
  return (
    <>
      <div class="context-preview">
        <SystemMessage
          text={text}
          maxContextTokens={request.maxContextTokens}
          droppedItems={droppedCount(context, text)}
        />
        <RetrievalTrace trace={context.trace} requested={request.strategy} />
      </div>
      <ReturnedItems context={context} text={text} />
    </>
  );
}

/**
 * "What would the model see": a query and the middleware's options, the `context/get` bundle formatted by the
 * middleware's own `formatMemoryContext`, and the retrieval trace with every returned item.
 */
export function ContextPreviewPage({ searchParams }: PageProps) {
  const key = searchParams.toString();
  const request = requestFromParams(searchParams);
  const result = useRequest(
    (client, signal) =>
      request === null ? Promise.resolve(null) : client.context.get(contextInputOf(request), { signal }),
    [key],
  );
  const submit = (next: PreviewRequest) => {
    const target = paramsOf(next);
    // The same request again is a refresh: new memories may have arrived since.
    if (target === key) result.reload();
    else navigate(`${consolePath('context')}?${target}`);
  };
  return (
    <>
      <PageHeader
        title="Context preview"
        description="What would the model see: the context bundle for a query, formatted exactly as the AI SDK middleware injects it, with the retrieval trace."
      />
      <PreviewForm key={key} initial={request ?? DEFAULT_PREVIEW_REQUEST} pending={result.loading} onSubmit={submit} />
      <section class="results" aria-label="Context preview" aria-busy={result.loading}>
        {result.error === undefined ? null : (
          <ErrorPanel error={result.error} title="Could not get the context" onRetry={result.reload} />
        )}
        {request === null ? (
          <EmptyState title="Type a query to see what the model would see">
            <p>
              The preview calls context/get with these options and formats the answer with the middleware's own
              formatter. It changes no memory; like any context/get call, it counts in the rollout's metrics and in the
              returned skill files' use counts.
            </p>
          </EmptyState>
        ) : result.data === undefined || result.data === null ? (
          result.loading ? (
            <Loading label="Getting the context" />
          ) : null
        ) : (
          <Preview context={result.data} request={request} />
        )}
      </section>
    </>
  );
}
