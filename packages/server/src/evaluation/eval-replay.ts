import type { OperationData, OperationInput } from '@memory-service/contract';
import {
  type EvalStatus,
  grade,
  roundScore,
  scoreCounts,
  scoreExtraction,
  scoreRetention,
  worst,
} from './eval-scoring.js';

type ReplayInput = OperationInput<'management.memory.evalReplay'>;
type Criteria = ReplayInput['passCriteria'];
type ReplayData = OperationData<'management.memory.evalReplay'>;
type ScenarioResult = ReplayData['scenarios'][number];

/** Scores one case and grades each of its metrics against the criteria; the case gets the worst grade. */
export function scoreScenario(scenario: ReplayInput['scenarios'][number], criteria: Criteria): ScenarioResult {
  const extraction = scoreExtraction(scenario.extraction.expected, scenario.extraction.observed);
  const compaction = scenario.compaction
    ? scoreRetention(scenario.compaction.requiredFacts, scenario.compaction.summary)
    : null;
  const trigger = scenario.trigger
    ? { ...scenario.trigger, match: scenario.trigger.expected === scenario.trigger.observed }
    : null;
  const grades: EvalStatus[] = [];
  const reasons: string[] = [];
  const check = (label: string, value: number, threshold: number, detail = '') => {
    const verdict = grade(value, threshold);
    grades.push(verdict);
    if (verdict !== 'pass') reasons.push(`${label} ${value} < ${threshold} (${verdict})${detail}`);
  };
  check('extractionF1', extraction.f1, criteria.extractionF1);
  if (compaction) {
    check(
      'compactionRetention',
      compaction.retention,
      criteria.compactionRetention,
      `: missing ${compaction.missing.length} fact(s)`,
    );
  }
  if (trigger) {
    check(
      'triggerAccuracy',
      trigger.match ? 1 : 0,
      criteria.triggerAccuracy,
      `: expected ${trigger.expected}, observed ${trigger.observed}`,
    );
  }
  return { id: scenario.id, status: worst(grades), extraction, compaction, trigger, reasons };
}

/**
 * Scores the cases of an eval replay deterministically (nothing is read or written) and sums them up.
 * Aggregates are micro-averaged: extraction from the summed counts, retention from the summed facts, trigger
 * accuracy over the cases that name a trigger; the summary gets the worst grade of those and of casePassRatio.
 */
export function scoreReplay(input: ReplayInput): Omit<ReplayData, 'scope'> {
  const criteria = input.passCriteria;
  const scenarios = input.scenarios.map((scenario) => scoreScenario(scenario, criteria));
  const sum = (pick: (result: ScenarioResult) => number) =>
    scenarios.reduce((total, result) => total + pick(result), 0);
  const extraction = scoreCounts(
    sum((result) => result.extraction.truePositives),
    sum((result) => result.extraction.falsePositives),
    sum((result) => result.extraction.falseNegatives),
  );
  const withCompaction = scenarios.filter((result) => result.compaction !== null);
  const required = sum((result) => result.compaction?.required ?? 0);
  const compactionRetention =
    withCompaction.length === 0
      ? null
      : required === 0
        ? 1
        : roundScore(sum((result) => result.compaction?.retained ?? 0) / required);
  const withTrigger = scenarios.filter((result) => result.trigger !== null);
  const triggerAccuracy =
    withTrigger.length === 0
      ? null
      : roundScore(withTrigger.filter((result) => result.trigger?.match).length / withTrigger.length);
  const count = (status: EvalStatus) => scenarios.filter((result) => result.status === status).length;
  const casePassRatio = roundScore(count('pass') / scenarios.length);
  const grades = [grade(casePassRatio, criteria.casePassRatio), grade(extraction.f1, criteria.extractionF1)];
  if (compactionRetention !== null) grades.push(grade(compactionRetention, criteria.compactionRetention));
  if (triggerAccuracy !== null) grades.push(grade(triggerAccuracy, criteria.triggerAccuracy));
  return {
    summary: {
      cases: scenarios.length,
      passed: count('pass'),
      warned: count('warn'),
      failed: count('fail'),
      extractionF1: extraction.f1,
      extractionPrecision: extraction.precision,
      extractionRecall: extraction.recall,
      compactionRetention,
      triggerAccuracy,
      casePassRatio,
      status: worst(grades),
    },
    scenarios,
  };
}
