import { CHARACTERS_PER_TOKEN } from '@memory-service/client';
import { useId } from 'preact/hooks';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/empty-state.js';

/** Estimated tokens of a text, as the formatter counts them against its budget. */
export function estimatedTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/**
 * The formatted context as the middleware injects it: one system message in front of the prompt, its estimated
 * size against the budget, and a Copy button.
 */
export function SystemMessage({
  text,
  maxContextTokens,
  droppedItems,
}: {
  text: string;
  maxContextTokens: number;
  /** Rules, memories and skill files the budget left out. */
  droppedItems: number;
}) {
  const titleId = useId();
  const tokens = estimatedTokens(text);
  return (
    <section class="system-message" aria-labelledby={titleId}>
      <header class="system-message__header">
        <h2 id={titleId}>System message</h2>
        {/* Keyed by the text: "Copied" belongs to the text that was copied. */}
        {text === '' ? null : <CopyButton key={text} text={text} label="Copy text" />}
      </header>
      <p class="system-message__size small" data-testid="token-estimate">
        <strong>≈ {tokens.toLocaleString()} tokens</strong> of a {maxContextTokens.toLocaleString()}-token budget ·{' '}
        {text.length.toLocaleString()} characters ÷ {CHARACTERS_PER_TOKEN}
        {droppedItems === 0
          ? null
          : ` · ${droppedItems} ${droppedItems === 1 ? 'item' : 'items'} dropped to fit, lowest-ranked first`}
      </p>
      {text === '' ? (
        <EmptyState title="The middleware would add no system message">
          <p>
            Nothing was returned for this query, or nothing fits in the token budget: the model call would go out
            without memory.
          </p>
        </EmptyState>
      ) : (
        <div class="system-message__frame">
          <p class="system-message__role" aria-hidden="true">
            role: system
          </p>
          {/* A focusable region so a keyboard can scroll it; the text is formatMemoryContext's, byte for byte. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
          <section class="system-message__scroll" tabIndex={0} aria-label="System message text">
            <pre class="system-message__text">{text}</pre>
          </section>
        </div>
      )}
    </section>
  );
}
