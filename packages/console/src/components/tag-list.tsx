/** Tags as small labels; nothing when there are none. */
export function TagList({ tags, label = 'Tags' }: { tags: readonly string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tag-list" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag} class="tag">
          {tag}
        </li>
      ))}
    </ul>
  );
}
