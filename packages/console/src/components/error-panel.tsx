import { type ConsoleError, isCredentialError } from '../api/console-error.js';

/**
 * An error in the contract's words: its `code` and `message`, the HTTP status and the request id to find it in the
 * server log, and a Retry button when the caller can retry.
 */
export function ErrorPanel({
  error,
  title = 'The request failed',
  onRetry,
}: {
  error: ConsoleError;
  title?: string;
  onRetry?: () => void;
}) {
  return (
    <div class="error-panel" role="alert">
      <p class="error-panel__title">
        {title}: <code class="error-panel__code">{error.code}</code>
      </p>
      <p class="error-panel__message">{error.message}</p>
      <p class="error-panel__meta">
        {error.status === null ? 'No response from the server' : `HTTP ${error.status}`}
        {error.field === null ? null : ` · field ${error.field}`}
        {error.requestId === null ? null : ` · request ${error.requestId}`}
      </p>
      {isCredentialError(error) ? (
        <p class="error-panel__hint">The server refused the credential: sign out and sign in with another one.</p>
      ) : null}
      {onRetry === undefined ? null : (
        <button type="button" class="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
