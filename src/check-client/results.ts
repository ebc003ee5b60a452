/**
 * The results of a client check as its scenarios are judged: per property pass, fail (with the
 * first counterexample, or a shrunk one) or skip, and per scenario its outcome.
 */
import type { ClientVerdict } from '../../properties/client/judges.js';
import type { ClientPropertyId } from '../../properties/client/ids.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import type { ClientHistory } from '../../properties/client/history.js';
import { describeFault } from './faults.js';
import type { ClientPropertyResult, ScenarioOutcome, ScenarioSource } from './report.js';
import type { ClientScenario } from './scenarios.js';

/** A scenario with where it comes from: what `--seed`/`--path` replays it. */
export interface SourcedScenario {
  scenario: ClientScenario;
  source: ScenarioSource;
  /** `fixed:NAME`, `model:NAME`, or a fast-check path (with the seed). */
  path: string;
  /** The fast-check seed, or -1 for a deterministic scenario. */
  seed: number;
}

/** A scenario run and judged. */
export interface Judged {
  sourced: SourcedScenario;
  history: ClientHistory;
  error?: string;
  verdicts: Array<{ id: ClientPropertyId; verdict: ClientVerdict }>;
  closeTimedOut?: true;
}

/** The per-property results as scenarios are folded in (in scenario order, so the first failure is stable). */
export class Results {
  readonly byId: Map<ClientPropertyId, ClientPropertyResult>;
  readonly outcomes: ScenarioOutcome[] = [];
  /** Scenarios whose client's close() did not finish within its bound. */
  closeTimeouts = 0;
  /** Why a property no scenario exercised may have been exercised by a scenario that was not run. */
  notRun: string[] = [];
  constructor(ids: readonly ClientPropertyId[]) {
    this.byId = new Map(
      ids.map((id) => [
        id,
        {
          id,
          status: 'skip',
          runs: 0,
          level: clientDefinitions[id].level,
          statement: clientDefinitions[id].statement,
          reason: 'no scenario that ran exercised it',
        },
      ]),
    );
  }

  /** Folds in one judged scenario: its outcome, and each property's runs and first failure. */
  add(judged: Judged): ScenarioOutcome {
    const { sourced, error } = judged;
    const outcome: ScenarioOutcome = {
      name: sourced.scenario.name,
      summary: sourced.scenario.summary,
      source: sourced.source,
      path: sourced.path,
      seed: sourced.seed,
      transport: sourced.scenario.transport,
      policy: sourced.scenario.policyName,
      faults: sourced.scenario.faults.map(describeFault),
      calls: sourced.scenario.calls.map((c) => c.args.count),
      broke: [],
    };
    if (error !== undefined) outcome.error = error;
    if (judged.closeTimedOut) this.closeTimeouts++;
    for (const { id, verdict } of judged.verdicts) {
      if (verdict.status === 'n/a') continue;
      const result = this.byId.get(id)!;
      result.runs++;
      if (verdict.status === 'fail') {
        outcome.broke.push(id);
        if (result.status !== 'fail') this.fail(id, judged, verdict);
      } else if (result.status === 'skip') {
        const { reason: _reason, ...rest } = result;
        this.byId.set(id, { ...rest, status: 'pass' });
      }
    }
    this.outcomes.push(outcome);
    return outcome;
  }

  /** Sets (or replaces, with a shrunk one) the counterexample of a failing property. */
  fail(id: ClientPropertyId, judged: Judged, verdict: Extract<ClientVerdict, { status: 'fail' }>): void {
    const result = this.byId.get(id)!;
    const { sourced, history } = judged;
    this.byId.set(id, {
      ...result,
      status: 'fail',
      reason: verdict.reason,
      counterexample: {
        scenario: sourced.scenario.name,
        source: sourced.source,
        seed: sourced.seed,
        path: sourced.path,
        transport: sourced.scenario.transport,
        policy: sourced.scenario.policyName,
        faults: sourced.scenario.faults.map(describeFault),
        calls: sourced.scenario.calls.map((c) => c.args.count),
        at: verdict.at,
        history,
      },
    });
  }

  /** The per-property results, a skip saying which scenarios were not run. */
  properties(): ClientPropertyResult[] {
    const notRun = this.notRun.length > 0 ? `; not run: ${this.notRun.join('; ')}` : '';
    return [...this.byId.values()].map((p) => (p.status === 'skip' && notRun ? { ...p, reason: `${p.reason ?? ''}${notRun}` } : p));
  }
}
