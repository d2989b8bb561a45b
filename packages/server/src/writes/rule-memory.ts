/**
 * Whether a memory (a stored row, or the fields a write sets) is a rule: its type or its layer is `rule`. Rules reach
 * every later prompt as standing instructions, which is why MCP writes them only with a permission
 * (`mcp/rule-write-guard.ts`).
 */
export function isRule(memory: { type?: string | null | undefined; layer?: string | null | undefined }): boolean {
  return memory.type === 'rule' || memory.layer === 'rule';
}
