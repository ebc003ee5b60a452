/**
 * Gathers the judgements of every scenario into one result per property: `fail` with the
 * (smallest) failing scenario as counterexample, else `pass` if some scenario could judge it,
 * else `skip` with the reason.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { HistoryView } from '../../properties/history-view.js';
import type { History } from '../../properties/history.js';
import { judges } from '../../properties/judges/index.js';
import type { Judgement } from '../../properties/judgement.js';
import type { Counterexample, PropertyResult } from './types.js';

/** A scenario that ran: its history and how to name and replay it. */
export interface ScenarioRecord {
  history: History;
  steps: string[];
  oracle: string[];
  seed: number;
  path: string;
}

interface Tally {
  runs: number;
  passes: number;
  lastPass?: string;
  skips: Map<string, number>;
  failure?: { judgement: Judgement; counterexample: Counterexample };
}

/** Judges one history for the given properties. */
export function judgeHistory(history: History, ids: readonly PropertyId[]): Map<PropertyId, Judgement> {
  const view = new HistoryView(history);
  return new Map(ids.map((id) => [id, judges[id](view)]));
}

export class Verdicts {
  private readonly tallies = new Map<PropertyId, Tally>();

  constructor(readonly ids: readonly PropertyId[]) {
    for (const id of ids) this.tallies.set(id, { runs: 0, passes: 0, skips: new Map() });
  }

  /** Adds one scenario's judgements; returns the properties it broke. */
  add(scenario: ScenarioRecord, judged = judgeHistory(scenario.history, this.ids)): PropertyId[] {
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
      // The shortest counterexample wins; equal lengths go by path, so parallel runs pick the same one.
      if (!known || counterexample.steps.length < known.steps.length || (counterexample.steps.length === known.steps.length && counterexample.path < known.path)) {
        tally.failure = { judgement, counterexample };
      }
    }
    return broken;
  }

  /** Replaces a property's counterexample with a (shrunk) one. */
  setCounterexample(id: PropertyId, judgement: Judgement, scenario: ScenarioRecord): void {
    const tally = this.tallies.get(id)!;
    tally.failure = { judgement, counterexample: toCounterexample(scenario) };
  }

  failed(id: PropertyId): boolean {
    return this.tallies.get(id)?.failure !== undefined;
  }

  /** Marks what is left unjudged as skipped for a reason that applies to all of it (e.g. the time budget). */
  skipRest(reason: string): void {
    for (const tally of this.tallies.values()) if (tally.runs === 0) tally.skips.set(reason, Number.MAX_SAFE_INTEGER);
  }

  results(): PropertyResult[] {
    return this.ids.map((id) => {
      const tally = this.tallies.get(id)!;
      if (tally.failure) {
        return { id, status: 'fail', runs: tally.runs, reason: tally.failure.judgement.reason, counterexample: tally.failure.counterexample };
      }
      if (tally.passes > 0) return { id, status: 'pass', runs: tally.runs, reason: tally.lastPass! };
      const [reason] = [...tally.skips.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['not exercised by any scenario'];
      return { id, status: 'skip', runs: 0, reason };
    });
  }
}

function toCounterexample(scenario: ScenarioRecord): Counterexample {
  const c: Counterexample = { steps: scenario.steps, seed: scenario.seed, path: scenario.path };
  if (scenario.oracle.length > 0) c.oracle = scenario.oracle;
  return c;
}
