/** The tenant a case runs in: one per pair case and one per timeline, so cases never see each other. */
export function tenantOf(caseId: string): string {
  return `quality-${caseId}`;
}
