/**
 * Gathers the judgements of every scenario into one result per property: `fail` with the
 * (smallest) failing scenario as counterexample, else `pass` if some scenario could judge it,
 * else `skip` with the reason. Failures that rest on one observation (same run, same step) are
 * grouped under a root cause: each property's counterexample is, where some run shows it, one in
 * which a failure of higher precedence rests on the same step, and then its cause's own run where
 * that shows both. Divergences from the model are gathered as findings of their own.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { diverged, type StepAnswer, type TraceStepData } from '../../model/trace-step.js';
import { HistoryView } from '../../properties/history-view.js';
import type { History } from '../../properties/history.js';
import { stricter, type Level } from '../../properties/definition.js';
import { basisOf, definitions } from '../../properties/definitions.js';
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
  /** Every failure of the same run, with its step: which other failures rest on the same step. */
  run: RunFailures;
  /** Set for a shrunk counterexample: kept whatever other runs offer. */
  fixed?: true;
}

/** The failures of one run, each with the step it rests on. */
type RunFailures = Map<PropertyId, { judgement: Judgement; step: number | undefined }>;

interface Tally {
  runs: number;
  passes: number;
  lastPass?: string;
  /** What the passing runs checked, totalled per kind over all of them. */
  checked: Map<string, number>;
  skips: Map<string, number>;
  failure?: Failure;
  /** Whether some run broke this property with no failure of higher precedence on the same step. */
  failedAlone: boolean;
}

/**
 * Which failure explains which, when several rest on one step of one run: the first in this list
 * is the cause, the others its consequences. Observations about a single answer come first; then
 * what an application misses, then what never ends, then effects run twice (a re-run is how a
 * client recovers from a loss or a stall).
 */
export const causePrecedence: readonly PropertyId[] = [
  'unknown-cursor-rejected',
  'replay-has-no-gap',
  'no-cross-transport-resume',
  'no-cross-session-replay',
  'no-cross-stream-replay',
  'terminated-session-404',
  'capabilities-honoured',
  'session-ids-visible-ascii',
  'session-ids-unguessable',
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
  const shape = (a: StepAnswer) => [
    a.status,
    a.reason,
    a.missing,
    a.frame?.seq === 0,
    a.error !== undefined,
    a.data !== undefined,
    a.newSession,
    a.stream,
    a.jsonBody,
  ];
  return JSON.stringify([step.kind, step.migrate ?? false, step.cursor?.origin ?? null, shape(step.expected), shape(step.answer)]);
}

/** The shorter counterexample first; equal lengths by path, so parallel runs pick the same one. */
function shorter(a: { steps: unknown[]; path: string }, b: { steps: unknown[]; path: string }): boolean {
  return a.steps.length < b.steps.length || (a.steps.length === b.steps.length && a.path < b.path);
}

/** The level a failure rests on: the judgement's own where the property grades it lower, else the property's. */
export function failureLevel(id: PropertyId, judgement: Judgement): Level {
  return judgement.level ?? definitions[id].level;
}

/** A property's place in {@link causePrecedence}; one it does not list yet comes last. */
export function causeRank(id: PropertyId): number {
  const i = causePrecedence.indexOf(id);
  return i < 0 ? causePrecedence.length : i;
}

/** The failures of `run` resting on the same step as `id`'s (itself included; itself alone when it names no step). */
function sameStep(run: RunFailures, id: PropertyId): PropertyId[] {
  const step = run.get(id)!.step;
  if (step === undefined) return [id];
  return [...run].filter(([, f]) => f.step === step).map(([other]) => other);
}

/** The cause among `group`: the first by {@link causePrecedence}. */
function causeOf(group: PropertyId[]): PropertyId {
  return [...group].sort((a, b) => causeRank(a) - causeRank(b))[0]!;
}

/** The cause of `id`'s failure in `run`: itself when no failure of higher precedence rests on its step. */
function causeIn(run: RunFailures, id: PropertyId): PropertyId {
  return causeOf(sameStep(run, id));
}

/** The cause of `id`'s failure in a run (itself when no failure of higher precedence rests on its step); undefined when it does not fail there. */
export function causeInRun(scenario: ScenarioRecord, judged: Map<PropertyId, Judgement>, id: PropertyId): PropertyId | undefined {
  const run = runFailures(scenario, judged);
  return run.has(id) ? causeIn(run, id) : undefined;
}

/**
 * Whether run `a` serves as `id`'s counterexample better than run `b`: first a run where a
 * failure of higher precedence rests on the same step (so the report can name the cause beside
 * the very trace), then the run where more failures rest on that step, then the shorter.
 */
function better(id: PropertyId, a: Failure, b: Failure): boolean {
  // The strictest level first: a property is reported at the level of its gravest failure.
  const levelA = failureLevel(id, a.judgement);
  const levelB = failureLevel(id, b.judgement);
  if (levelA !== levelB && (stricter(levelA, levelB) || stricter(levelB, levelA))) return stricter(levelA, levelB);
  const explained = (f: Failure) => (causeIn(f.run, id) !== id ? 1 : 0);
  if (explained(a) !== explained(b)) return explained(a) > explained(b);
  const size = (f: Failure) => sameStep(f.run, id).length;
  if (size(a) !== size(b)) return size(a) > size(b);
  return shorter(a.counterexample, b.counterexample);
}

/** The failures among a run's judgements, each with the step it rests on. */
function runFailures(scenario: ScenarioRecord, judged: Map<PropertyId, Judgement>): RunFailures {
  const run: RunFailures = new Map();
  for (const [id, judgement] of judged) if (judgement.status === 'fail') run.set(id, { judgement, step: anchorStep(scenario, judgement) });
  return run;
}

export class Verdicts {
  private readonly tallies = new Map<PropertyId, Tally>();
  private readonly divergenceMap = new Map<string, Divergence>();
  /** Why what was left unjudged stayed so (`skipRest`). */
  private leftUnjudged: string | undefined;

  constructor(readonly ids: readonly PropertyId[]) {
    for (const id of ids) this.tallies.set(id, { runs: 0, passes: 0, checked: new Map(), skips: new Map(), failedAlone: false });
  }

  /** Adds one scenario's judgements; returns the properties it broke. */
  add(scenario: ScenarioRecord, judged = judgeHistory(scenario.history, this.ids)): PropertyId[] {
    this.addDivergences(scenario);
    const broken: PropertyId[] = [];
    const run = runFailures(scenario, judged);
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
        if (judgement.checked) tally.checked.set(judgement.checked.what, (tally.checked.get(judgement.checked.what) ?? 0) + judgement.checked.count);
        continue;
      }
      broken.push(id);
      if (causeIn(run, id) === id) tally.failedAlone = true;
      const failure: Failure = { judgement, counterexample: toCounterexample(scenario), step: run.get(id)!.step, run };
      const known = tally.failure;
      if (!known || (!known.fixed && better(id, failure, known))) tally.failure = failure;
    }
    return broken;
  }

  /**
   * The failures that rest on the same step of `id`'s counterexample as `id`'s own (itself
   * included): what a shrink of that counterexample should keep together.
   */
  group(id: PropertyId): PropertyId[] {
    const failure = this.tallies.get(id)?.failure;
    return failure ? sameStep(failure.run, id) : [];
  }

  /** The counterexample a property's failure is reported with (after {@link results}' grouping, the one shown). */
  counterexample(id: PropertyId): Counterexample | undefined {
    return this.tallies.get(id)?.failure?.counterexample;
  }

  /** Each failure of `id`'s group (see {@link group}) at its level in the run `id` is reported with: what a shrink of that run must keep. */
  groupLevels(id: PropertyId): Map<PropertyId, Level> {
    const failure = this.tallies.get(id)?.failure;
    if (!failure) return new Map();
    return new Map(sameStep(failure.run, id).map((m) => [m, failureLevel(m, failure.run.get(m)!.judgement)]));
  }

  /** The level a property's reported failure rests on (see {@link failureLevel}). */
  levelOf(id: PropertyId): Level | undefined {
    const failure = this.tallies.get(id)?.failure;
    return failure && failureLevel(id, failure.judgement);
  }

  /** The step of its counterexample a property's reported failure rests on (see {@link anchorStep}). */
  stepOf(id: PropertyId): number | undefined {
    return this.tallies.get(id)?.failure?.step;
  }

  /** The cause of a property's reported failure in its run: itself, or the failure of higher precedence on the same step. */
  causeOf(id: PropertyId): PropertyId | undefined {
    const failure = this.tallies.get(id)?.failure;
    return failure && causeIn(failure.run, id);
  }

  /** Whether a property's counterexample shows a failure of higher precedence on the same step: it is a consequence. */
  explained(id: PropertyId): boolean {
    const failure = this.tallies.get(id)?.failure;
    return failure !== undefined && causeIn(failure.run, id) !== id;
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

  /** Replaces a property's counterexample with a (shrunk) run, given all its judgements; no later run replaces it. */
  setCounterexample(id: PropertyId, scenario: ScenarioRecord, judged: Map<PropertyId, Judgement>): void {
    const tally = this.tallies.get(id)!;
    const run = runFailures(scenario, judged);
    const own = run.get(id);
    if (!own) throw new RangeError(`${id} does not fail in the run given as its counterexample`);
    if (causeIn(run, id) === id) tally.failedAlone = true;
    tally.failure = { judgement: own.judgement, counterexample: toCounterexample(scenario), step: own.step, run, fixed: true };
  }

  failed(id: PropertyId): boolean {
    return this.tallies.get(id)?.failure !== undefined;
  }

  /**
   * Says why what is left unjudged stayed so, for all of it (e.g. the time budget ran out). Each
   * skip reason then leads with it, and keeps what the scenarios that ran said: a reason of the
   * candidate's design (no resumption offered, say) would hold with more time too.
   */
  skipRest(reason: string): void {
    this.leftUnjudged = reason;
  }

  /** The distinct divergences from the model, shortest run first. */
  divergences(): Divergence[] {
    return [...this.divergenceMap.values()].sort((a, b) => (shorter(a, b) ? -1 : shorter(b, a) ? 1 : 0));
  }

  results(): PropertyResult[] {
    this.shareCauseRuns();
    const results = this.ids.map((id): PropertyResult => {
      const tally = this.tallies.get(id)!;
      const failure = tally.failure;
      if (failure) {
        const result: PropertyResult = {
          id,
          ...basisOf(id),
          status: 'fail',
          runs: tally.runs,
          reason: failure.judgement.reason,
          counterexample: failure.counterexample,
        };
        result.level = failureLevel(id, failure.judgement);
        if (!tally.failedAlone) result.followsFrom = causeIn(failure.run, id);
        return result;
      }
      if (tally.passes > 0) return { id, ...basisOf(id), status: 'pass', runs: tally.runs, reason: passReason(tally) };
      const [seen] = [...tally.skips.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
      const reason = this.leftUnjudged
        ? `${this.leftUnjudged}${seen ? `; in the scenarios that ran: ${seen}` : ''}`
        : (seen ?? 'not exercised by any scenario');
      return { id, ...basisOf(id), status: 'skip', runs: 0, reason };
    });
    this.markCauses(results);
    return results;
  }

  /**
   * A consequence takes its cause's counterexample where that run shows it failing on the cause's
   * step: cause and consequence are then reported with one trace and one replay path. Causes go
   * first (by precedence), so a chain settles on the run of its first cause.
   */
  private shareCauseRuns(): void {
    for (const id of [...this.ids].sort((a, b) => causeRank(a) - causeRank(b))) {
      const tally = this.tallies.get(id)!;
      const failure = tally.failure;
      if (!failure || failure.step === undefined) continue;
      const cause = causeIn(failure.run, id);
      const theirs = cause === id ? undefined : this.tallies.get(cause)?.failure;
      if (!theirs || theirs.counterexample === failure.counterexample) continue;
      const mine = theirs.run.get(id);
      if (mine === undefined || mine.step === undefined || mine.step !== theirs.step) continue;
      if (stricter(failureLevel(id, failure.judgement), failureLevel(id, mine.judgement))) continue;
      tally.failure = { judgement: mine.judgement, counterexample: theirs.counterexample, step: mine.step, run: theirs.run };
    }
  }

  /**
   * Names the cause of each failure reported with its cause's very run, where a failure of higher
   * precedence rests on the same step (the first by {@link causePrecedence}): the reports then
   * show the trace once, under the cause.
   */
  private markCauses(results: PropertyResult[]): void {
    for (const id of this.ids) {
      const failure = this.tallies.get(id)!.failure;
      if (!failure || failure.step === undefined) continue;
      const cause = causeIn(failure.run, id);
      if (cause === id || this.tallies.get(cause)?.failure?.run !== failure.run) continue;
      results.find((r) => r.id === id)!.causedBy = { property: cause, step: failure.step };
    }
  }
}

/** A pass over all runs: what they checked, totalled (`120 resumed stream(s) delivered everything, over 53 runs`). */
function passReason(tally: Tally): string {
  const runs = `${tally.passes} run${tally.passes === 1 ? '' : 's'}`;
  if (tally.checked.size === 0) return tally.passes === 1 ? tally.lastPass! : `${tally.lastPass!} (the last of ${runs})`;
  return `${[...tally.checked].map(([what, count]) => `${count} ${what}`).join('; ')}, over ${runs}`;
}

function toCounterexample(scenario: ScenarioRecord): Counterexample {
  return { steps: scenario.steps, seed: scenario.seed, path: scenario.path };
}
