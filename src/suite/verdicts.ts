/**
 * Gathers the judgements of every scenario into one result per property: `fail` with the
 * (smallest) failing scenario as counterexample, else `pass` if some scenario could judge it,
 * else `skip` with the reason. Failures that rest on one observation (same run, same step) are
 * grouped under a root cause; divergences from the model are gathered as findings of their own.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { diverged, type StepAnswer, type TraceStepData } from '../../model/trace-step.js';
import { HistoryView } from '../../properties/history-view.js';
import type { History } from '../../properties/history.js';
import { basisOf } from '../../properties/definitions.js';
import { judges } from '../../properties/judges/index.js';
import type { Judgement } from '../../properties/judgement.js';
import type { Counterexample, Divergence, PropertyResult } from './types.js';

/** A scenario that ran: its history, its steps and how to name and replay it. */
export interface ScenarioRecord {
  history: History;
  steps: TraceStepData[];
  seed: number;
  path: string;
}

interface Failure {
  judgement: Judgement;
  counterexample: Counterexample;
  /** The step the failure rests on (see {@link anchorStep}); undefined when its evidence names none. */
  step: number | undefined;
}

interface Tally {
  runs: number;
  passes: number;
  lastPass?: string;
  skips: Map<string, number>;
  failure?: Failure;
}

/**
 * Which failure explains which, when several rest on one step of one run: the first in this list
 * is the cause, the others its consequences. Observations about a single answer come first; then
 * what an application misses, then what never ends, then effects run twice (a re-run is how a
 * client recovers from a loss or a stall).
 */
export const causePrecedence: readonly PropertyId[] = [
  'unknown-cursor-rejected',
  'no-cross-transport-resume',
  'no-cross-session-replay',
  'no-cross-stream-replay',
  'terminated-session-404',
  'capabilities-honoured',
  'session-ids-secure',
  'event-ids-unique',
  'order-preserved',
  'no-silent-loss',
  'no-silent-stall',
  'at-most-once-effect',
];

/** Judges one history for the given properties. */
export function judgeHistory(history: History, ids: readonly PropertyId[]): Map<PropertyId, Judgement> {
  const view = new HistoryView(history);
  return new Map(ids.map((id) => [id, judges[id](view)]));
}

/**
 * The step a failure rests on: the step during which its earliest evidence was recorded; when the
 * candidate had left the model at an earlier step (or the evidence names no entry), that step, since
 * what follows a divergence follows from it.
 */
export function anchorStep(scenario: ScenarioRecord, judgement: Judgement): number | undefined {
  const evidence = judgement.evidence ?? [];
  let step: number | undefined;
  if (evidence.length > 0) {
    const first = Math.min(...evidence);
    let n = 0;
    for (const e of scenario.history.entries) {
      if (e.seq > first) break;
      if (e.type === 'step') n++;
    }
    step = n > 0 ? n : undefined;
  }
  const divergence = scenario.steps.find(diverged)?.index;
  if (divergence !== undefined && (step === undefined || step >= divergence)) return divergence;
  return step;
}

/** What makes two divergences the same finding: the step's kind and the answers, without the IDs that differ per run. */
function divergenceKey(step: TraceStepData & { expected: StepAnswer }): string {
  const shape = (a: StepAnswer) => [a.status, a.reason, a.missing, a.frame?.seq === 0, a.error !== undefined, a.data !== undefined, a.newSession, a.stream];
  return JSON.stringify([step.kind, step.migrate ?? false, step.cursor?.origin ?? null, shape(step.expected), shape(step.answer)]);
}

/** The shorter counterexample first; equal lengths by path, so parallel runs pick the same one. */
function shorter(a: { steps: unknown[]; path: string }, b: { steps: unknown[]; path: string }): boolean {
  return a.steps.length < b.steps.length || (a.steps.length === b.steps.length && a.path < b.path);
}

export class Verdicts {
  private readonly tallies = new Map<PropertyId, Tally>();
  private readonly divergenceMap = new Map<string, Divergence>();

  constructor(readonly ids: readonly PropertyId[]) {
    for (const id of ids) this.tallies.set(id, { runs: 0, passes: 0, skips: new Map() });
  }

  /** Adds one scenario's judgements; returns the properties it broke. */
  add(scenario: ScenarioRecord, judged = judgeHistory(scenario.history, this.ids)): PropertyId[] {
    this.addDivergences(scenario);
    const broken: PropertyId[] = [];
    for (const [id, judgement] of judged) {
      const tally = this.tallies.get(id)!;
      if (judgement.status === 'skip') {
        tally.skips.set(judgement.reason, (tally.skips.get(judgement.reason) ?? 0) + 1);
        continue;
      }
      tally.runs++;
      if (judgement.status === 'pass') {
        tally.passes++;
        tally.lastPass = judgement.reason;
        continue;
      }
      broken.push(id);
      const counterexample = toCounterexample(scenario);
      const known = tally.failure?.counterexample;
      if (!known || shorter(counterexample, known)) tally.failure = { judgement, counterexample, step: anchorStep(scenario, judgement) };
    }
    return broken;
  }

  private addDivergences(scenario: ScenarioRecord): void {
    const first = scenario.steps.find(diverged);
    if (!first) return;
    // The first divergence of a run is the finding; later ones may follow from it.
    const key = divergenceKey(first);
    const found: Divergence = { step: first, seed: scenario.seed, path: scenario.path, steps: scenario.steps.slice(0, first.index), runs: 1 };
    const known = this.divergenceMap.get(key);
    if (!known) this.divergenceMap.set(key, found);
    else {
      const runs = known.runs + 1;
      this.divergenceMap.set(key, shorter(found, known) ? { ...found, runs } : { ...known, runs });
    }
  }

  /** Replaces a property's counterexample with a (shrunk) one. */
  setCounterexample(id: PropertyId, judgement: Judgement, scenario: ScenarioRecord): void {
    const tally = this.tallies.get(id)!;
    tally.failure = { judgement, counterexample: toCounterexample(scenario), step: anchorStep(scenario, judgement) };
  }

  failed(id: PropertyId): boolean {
    return this.tallies.get(id)?.failure !== undefined;
  }

  /** Marks what is left unjudged as skipped for a reason that applies to all of it (e.g. the time budget). */
  skipRest(reason: string): void {
    for (const tally of this.tallies.values()) if (tally.runs === 0) tally.skips.set(reason, Number.MAX_SAFE_INTEGER);
  }

  /** The distinct divergences from the model, shortest run first. */
  divergences(): Divergence[] {
    return [...this.divergenceMap.values()].sort((a, b) => (shorter(a, b) ? -1 : shorter(b, a) ? 1 : 0));
  }

  results(): PropertyResult[] {
    const results = this.ids.map((id): PropertyResult => {
      const tally = this.tallies.get(id)!;
      if (tally.failure) {
        return { id, ...basisOf(id), status: 'fail', runs: tally.runs, reason: tally.failure.judgement.reason, counterexample: tally.failure.counterexample };
      }
      if (tally.passes > 0) return { id, ...basisOf(id), status: 'pass', runs: tally.runs, reason: tally.lastPass! };
      const [reason] = [...tally.skips.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['not exercised by any scenario'];
      return { id, ...basisOf(id), status: 'skip', runs: 0, reason };
    });
    this.markCauses(results);
    return results;
  }

  /** Groups failures of one run and one step: the first by {@link causePrecedence} is the cause, the rest name it. */
  private markCauses(results: PropertyResult[]): void {
    const groups = new Map<string, PropertyId[]>();
    for (const id of this.ids) {
      const failure = this.tallies.get(id)!.failure;
      if (!failure || failure.step === undefined) continue;
      const key = JSON.stringify([failure.counterexample.seed, failure.counterexample.path, failure.step]);
      groups.set(key, [...(groups.get(key) ?? []), id]);
    }
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const rank = (id: PropertyId) => causePrecedence.indexOf(id);
      const [cause, ...consequences] = [...members].sort((a, b) => rank(a) - rank(b));
      const step = this.tallies.get(cause!)!.failure!.step!;
      for (const id of consequences) {
        const result = results.find((r) => r.id === id)!;
        result.causedBy = { property: cause!, step };
      }
    }
  }
}

function toCounterexample(scenario: ScenarioRecord): Counterexample {
  return { steps: scenario.steps, seed: scenario.seed, path: scenario.path };
}
