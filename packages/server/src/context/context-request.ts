import type { ContextMode, ResolvedScope, RolloutMode, Strategy } from '@memory-service/contract';
import type { EmbeddingRegistry } from '../embeddings/registry.js';

/** What a context request asks for, after validation, strategy selection and rollout lookup. */
export interface ContextRequest {
  query: string;
  scope: ResolvedScope;
  limit: number;
  mode: ContextMode;
  includeRules: boolean;
  includeSkillFiles: boolean;
  graphDepth: number;
  graphLimit: number;
  strategy: Strategy;
  strategySelection: 'request' | 'policy_default';
  policyDefault: Strategy;
  /** The scope's graph rollout mode (off when not given). */
  rolloutMode?: RolloutMode;
  now: Date;
  /** The server's embedding models (the query's vectors of a hybrid call). */
  embeddings: EmbeddingRegistry;
}
