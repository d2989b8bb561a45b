/** Whether the budgeted system message kept an item: "in the message", or "dropped by the budget". */
export function InText({ shown }: { shown: boolean }) {
  return shown ? (
    <span class="returned-item__in-text">in the message</span>
  ) : (
    <span class="returned-item__dropped">dropped by the budget</span>
  );
}
