// The rows a consolidation run reads and the plan it writes. Here, not beside the planner (consolidation/), so the
// store that reads candidates and applies plans imports them downward.

/** How a memory's subject key was found (docs/architecture.md#write-side-behaviour), from most to least explicit. */
export type SubjectKeySource = 'category' | 'prefix' | 'first_words';

/** What consolidation reads of a memory. */
export interface ConsolidationCandidate {
  id: string;
  seq: number;
  content: string;
  type: string;
  category: string | null;
  projectId: string | null;
  userId: string | null;
  contentHash: string;
  createdAt: string;
  /** When what it says happened (`occurred_at`): what "newer" means between two statements. */
  occurredAt: string;
}

/** One winner's outcome: its older duplicates merge, older statements of the same claim with another value are superseded. */
export interface ConsolidationGroup {
  subjectKey: string;
  keySource: SubjectKeySource;
  winnerId: string;
  mergedIds: string[];
  supersededIds: string[];
}

/** The plan of a run; applying it changes nothing the plan does not name. */
export interface ConsolidationPlan {
  inputCount: number;
  groups: ConsolidationGroup[];
}
