/**
 * What every report format says about a counterexample's steps, root causes and divergences,
 * rendered from the structured values (`model/trace-step.ts`) through the one step renderer
 * (`model/trace-text.ts`). Pure: no I/O.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { diverged, type TraceStepData } from '../../model/trace-step.js';
import { answerText, divergenceText, stepLine, traceLegend } from '../../model/trace-text.js';
import type { Counterexample, Divergence, PropertyResult, SuiteReport } from '../check-server/types.js';

/** A counterexample's steps as sentences, `N. action -> answer`. */
export function traceLines(steps: readonly TraceStepData[]): string[] {
  return steps.map(stepLine);
}

/** For each step where the candidate left the model: `step N: model expects X; candidate answered Y`. */
export function oracleLines(counterexample: Counterexample): string[] {
  return counterexample.steps
    .filter(diverged)
    .map((s) => `step ${s.index}: model expects ${answerText(s, s.expected) || 'nothing'}; candidate answered ${answerText(s, s.answer) || 'nothing'}`);
}

/** A divergence finding in one line: `deviates from the model at step N (...): model expects X, candidate answered Y`. */
export function divergenceLine(d: Divergence): string {
  return `${divergenceText(d.step)} (${d.runs} run${d.runs === 1 ? '' : 's'})`;
}

/** `caused by P (step N)`, for a consequence. */
export function causeLine(p: PropertyResult): string | undefined {
  return p.causedBy ? `consequence of ${p.causedBy.property} (same run, step ${p.causedBy.step})` : undefined;
}

/**
 * `never failed on its own: ...`, for a failure that every run showed beside a failure of higher
 * precedence on the same step. Reports show it where {@link causeLine} does not (that shares the cause's trace).
 */
export function followsLine(p: PropertyResult): string | undefined {
  if (!p.followsFrom) return undefined;
  return `never failed on its own: every run that broke it also broke ${p.followsFrom} (or another property of higher precedence) at the same step; fix ${p.followsFrom} first`;
}

/** What the short names in a report's traces and divergences stand for (`traceLegend`), for the names they use. */
export function legendOf(report: SuiteReport): string[] {
  const steps = [
    ...report.properties.flatMap((p) => (p.status === 'fail' ? (p.counterexample?.steps ?? []) : [])),
    ...(report.divergences ?? []).flatMap((d) => [...d.steps, d.step]),
  ];
  return traceLegend(steps);
}

/** The failures that others name as their cause, each with its consequences, in report order. */
export function rootCauses(report: SuiteReport): Array<{ cause: PropertyId; step: number; consequences: PropertyId[] }> {
  const groups = new Map<PropertyId, { cause: PropertyId; step: number; consequences: PropertyId[] }>();
  for (const p of report.properties) {
    if (p.status !== 'fail' || !p.causedBy) continue;
    const group = groups.get(p.causedBy.property) ?? { cause: p.causedBy.property, step: p.causedBy.step, consequences: [] };
    group.consequences.push(p.id);
    groups.set(p.causedBy.property, group);
  }
  const order = report.properties.map((p) => p.id);
  return [...groups.values()].sort((a, b) => order.indexOf(a.cause) - order.indexOf(b.cause));
}
