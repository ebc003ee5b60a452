/**
 * Runs the client scenarios against one client adapter: per scenario a fresh reference server, a
 * loopback proxy with the scenario's faults, and a fresh client from the factory; then every client
 * judge on what was recorded. Every server, proxy and client is stopped in `finally`.
 */
import { clientJudges, type ClientVerdict } from '../../properties/client/judges.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import type { AppEntry, ClientHistory, WireEntry, WireMessage } from '../../properties/client/history.js';
import { createReferenceServer } from '../reference/server.js';
import { patientTimeout } from '../wire/patient-timer.js';
import { ClientUnusable, probeFailure, probeScenario, transportNames, type ClientAbilities } from './abilities.js';
import type { ClientFactory, ClientUnderTest } from './adapters/contract.js';
import { isClientUnderTest } from './adapters/contract.js';
import { describeFault } from './faults.js';
import { Clock, startProxy } from './proxy.js';
import { drawnAt, sampleDrawn, scenarioOf, shrinkDrawn } from './interleavings.js';
import { modelScenarios } from './model-scenarios.js';
import type { ClientPropertyResult, ClientReport, ScenarioOutcome, ScenarioSource } from './report.js';
import { clientScenarios, type ClientScenario } from './scenarios.js';
import { clientMutants } from './mutants/index.js';
import type { Transport } from '../../model/transport.js';

export interface ClientCheckOptions {
  /** Shown in reports. */
  name: string;
  /** The request timeout handed to the factory, ms (default 1000). Calls are waited for 3x this + 500 ms. */
  timeoutMs?: number;
  /** Run only these fixed or model scenarios (by name), and no interleavings. */
  scenarios?: string[];
  /** Include the fixed catalog's scenarios (default true). */
  fixed?: boolean;
  /** Include the model's scenarios (default true). */
  model?: boolean;
  /** fast-check interleavings of calls and faults after the deterministic scenarios (default 0). */
  runs?: number;
  /** The interleavings' fast-check seed (default random); with `path`, the seed of the run to replay. */
  seed?: number;
  /** Replay one scenario: `fixed:NAME`, `model:NAME`, or a fast-check path (with `seed`). */
  path?: string;
  /** Stop at the first failure: no further scenarios, no shrinking (time to a first counterexample). */
  failFast?: boolean;
  /** Time all shrinking may take, ms (default 10,000). */
  shrinkMs?: number;
  /**
   * Scenarios in flight at once (default 1). Each has its own server, proxy and client, but they
   * share the CPU: a client's reconnection under load can outlast a short timeout, and the
   * finding would be the load's.
   */
  concurrency?: number;
  /** Judge only these properties. */
  only?: ClientPropertyId[];
  /** The bound of the factory's connect, ms (default {@link setupMs} of the timeout). */
  connectMs?: number;
  /** The bound of the client's `close()`, ms (default 5,000). */
  closeMs?: number;
  /** Called after each scenario. */
  onScenario?: (outcome: ScenarioOutcome) => void;
  /** Progress after each scenario folded: the fixed and model `scenarios`, then the `interleavings`. */
  onProgress?: (event: ClientCheckProgress) => void;
}

/** One step of a client check's progress (the same fields as the server check's progress events). */
export interface ClientCheckProgress {
  phase: 'scenarios' | 'interleavings';
  done: number;
  total: number;
  elapsedMs: number;
  /** The properties failing so far. */
  broke: ClientPropertyId[];
}

/** The bound of a client's setup (connecting is not under test): generous, so load does not fail a scenario. */
export function setupMs(timeoutMs: number): number {
  return Math.max(timeoutMs * 10, 5000) + 1000;
}

/** How long an application-side wait for a frame's message may take before a cut goes ahead anyway. */
const APPLICATION_WAIT_MS = 500;

/** A bounded step of the client's that did not finish: told apart by its class, not its words. */
class NotFinished extends Error {}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let cancel: (() => void) | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      cancel = patientTimeout(ms, () => reject(new NotFinished(`${what} did not finish within ${ms} ms`)));
    }),
  ]).finally(() => cancel?.());
}

/** Whether an application entry is `message` reaching the application (a response: some call settling after the frame). */
function sameMessage(entry: AppEntry, message: WireMessage, since: number): boolean {
  if (entry.at <= since) return false;
  if (message.method === undefined) return entry.kind === 'settled' && entry.outcome !== 'pending';
  return entry.kind === 'notification' && entry.method === message.method && JSON.stringify(entry.params) === JSON.stringify(message.params);
}

/** The bounds of a client's setup and teardown, ms. */
export interface ClientBounds {
  connectMs?: number;
  closeMs?: number;
}

/**
 * Runs one scenario and returns its history, or the reason it could not run; `closeTimedOut` when
 * the client's `close()` did not finish within its bound.
 */
export async function runScenario(
  factory: ClientFactory,
  scenario: ClientScenario,
  timeoutMs: number,
  bounds: ClientBounds = {},
): Promise<{ history: ClientHistory; error?: string; closeTimedOut?: true }> {
  const boundMs = timeoutMs * 3 + 500;
  const clock = new Clock();
  const wire: WireEntry[] = [];
  const app: AppEntry[] = [];
  const history: ClientHistory = {
    transport: scenario.transport,
    wire,
    app,
    boundMs,
    ...(scenario.policy.server.replay === 'inclusive' ? { serverReplay: 'inclusive' as const } : {}),
  };
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const applicationHas = (message: WireMessage, since: number): Promise<boolean> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!app.some((e) => sameMessage(e, message, since))) return;
        done(true);
      };
      const cancel = patientTimeout(APPLICATION_WAIT_MS, () => done(false));
      const done = (value: boolean): void => {
        cancel();
        waiters.delete(check);
        resolve(value);
      };
      waiters.add(check);
      check();
    });

  const server = await createReferenceServer({ policy: scenario.policy });
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let client: ClientUnderTest | undefined;
  // Filled in before `finally` closes the client, which marks a close() that did not finish.
  let result: { history: ClientHistory; closeTimedOut?: true } | undefined;
  try {
    proxy = await startProxy({ upstream: server.url, faults: scenario.faults, clock, wire, applicationHas });
    const url = `${proxy.url}${scenario.transport === 'streamable' ? '/mcp' : '/sse'}`;
    let gaveUp = false;
    try {
      const making = Promise.resolve().then(() => factory({ url, transport: scenario.transport, timeoutMs }));
      // A client that connects after its bound is closed when it does, not left running.
      making.then((late) => (gaveUp && isClientUnderTest(late) ? late.close() : undefined)).catch(() => {});
      const made = await bounded(making, bounds.connectMs ?? setupMs(timeoutMs), 'the client factory');
      if (!isClientUnderTest(made)) throw new Error('the factory did not resolve to {callTool, onNotification, close}');
      client = made;
    } catch (error) {
      gaveUp = true;
      const reason = (error as Error)?.message?.split('\n')[0] ?? String(error);
      return { history, error: error instanceof NotFinished ? reason : `the client could not connect: ${reason}` };
    }
    client.onNotification((n) => {
      app.push({ kind: 'notification', at: clock.tick(), method: n.method, ...(n.params !== undefined ? { params: n.params } : {}) });
      changed();
    });
    let number = 0;
    for (const call of scenario.calls) {
      const callNumber = ++number;
      app.push({ kind: 'call', at: clock.tick(), call: callNumber, name: call.name, args: { ...call.args } });
      let cancel: (() => void) | undefined;
      const outcome = await Promise.race([
        Promise.resolve()
          .then(() => client!.callTool(call.name, { ...call.args }))
          .then(
            (value): AppEntry => ({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'resolved', value }),
            (error: unknown): AppEntry => ({
              kind: 'settled',
              at: clock.tick(),
              call: callNumber,
              outcome: 'rejected',
              error: (error as Error)?.message ?? String(error),
            }),
          ),
        new Promise<AppEntry>((resolve) => {
          cancel = patientTimeout(boundMs, () => resolve({ kind: 'settled', at: clock.tick(), call: callNumber, outcome: 'pending' }));
        }),
      ]);
      cancel?.();
      app.push(outcome);
      changed();
    }
    result = { history: { ...history, wire: [...wire], app: [...app] } };
    return result;
  } finally {
    if (client) {
      await bounded(
        Promise.resolve().then(() => client!.close()),
        bounds.closeMs ?? 5_000,
        'close()',
      ).catch((error: Error) => {
        if (result && error instanceof NotFinished) result.closeTimedOut = true;
      });
    }
    await proxy?.close();
    await server.close();
  }
}

/** Judges one history with every (selected) client property. */
export function judgeClientHistory(history: ClientHistory, only: readonly ClientPropertyId[] = clientPropertyIds) {
  return only.map((id) => ({ id, verdict: clientJudges[id](history) }));
}

/** A scenario with where it comes from: what `--seed`/`--path` replays it. */
interface SourcedScenario {
  scenario: ClientScenario;
  source: ScenarioSource;
  /** `fixed:NAME`, `model:NAME`, or a fast-check path (with the seed). */
  path: string;
  /** The fast-check seed, or -1 for a deterministic scenario. */
  seed: number;
}

/** Every scenario a check runs before its interleavings: the model's, then the fixed catalog. */
export function deterministicScenarios(timeoutMs: number, model = true): Array<Omit<SourcedScenario, 'seed'>> {
  const fixed = clientScenarios(timeoutMs).map((scenario) => ({ scenario, source: 'fixed' as const, path: `fixed:${scenario.name}` }));
  if (!model) return fixed;
  const knobs = [{}, ...clientMutants.map((m) => m.knobs)];
  // The model's first: its shortest paths are the quickest scenarios.
  return [...modelScenarios(knobs).map((scenario) => ({ scenario, source: 'model' as const, path: scenario.name })), ...fixed];
}

/** Runs `task(0..count-1)` with at most `width` in flight. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

/** A scenario run and judged. */
interface Judged {
  sourced: SourcedScenario;
  history: ClientHistory;
  error?: string;
  verdicts: Array<{ id: ClientPropertyId; verdict: ClientVerdict }>;
  closeTimedOut?: true;
}

async function runJudged(
  factory: ClientFactory,
  sourced: SourcedScenario,
  timeoutMs: number,
  ids: readonly ClientPropertyId[],
  bounds: ClientBounds = {},
): Promise<Judged> {
  const { history, error, closeTimedOut } = await runScenario(factory, sourced.scenario, timeoutMs, bounds);
  return {
    sourced,
    history,
    ...(error !== undefined ? { error } : {}),
    ...(closeTimedOut ? { closeTimedOut } : {}),
    verdicts: error !== undefined ? [] : judgeClientHistory(history, ids),
  };
}

/** The transports in probe order: streamable first, the commoner. */
const probed: readonly Transport[] = ['streamable', 'sse'];

/**
 * Finds out which transports the client serves: one plain `tools/call` per transport, nothing
 * injected, one transport after the other, bounded as a scenario is.
 * @throws ClientUnusable when the call completes under neither transport, naming what happened under each
 */
export async function probeClient(
  factory: ClientFactory,
  timeoutMs: number,
  bounds: ClientBounds = {},
): Promise<ClientAbilities & { unserved: Partial<Record<Transport, string>>; closeTimedOut: boolean }> {
  // One after the other, as scenarios run by default: an adapter that holds one resource (a port,
  // a lock) must not fail a probe only because another runs beside it.
  const runs: Array<Awaited<ReturnType<typeof runScenario>>> = [];
  for (const transport of probed) runs.push(await runScenario(factory, probeScenario(transport), timeoutMs, bounds));
  const unserved: Partial<Record<Transport, string>> = {};
  probed.forEach((t, i) => {
    const failure = probeFailure(runs[i]!.history, runs[i]!.error);
    if (failure !== undefined) unserved[t] = failure;
  });
  const transports = probed.filter((t) => unserved[t] === undefined);
  if (transports.length === 0) {
    throw new ClientUnusable(
      `the client completes no tools/call with no fault injected: ${probed.map((t) => `${transportNames[t]}: ${unserved[t]!}`).join('; ')}`,
    );
  }
  return {
    transports,
    notes: probed.flatMap((t) =>
      unserved[t] !== undefined
        ? [
            `${transportNames[t]}: a plain tools/call with no fault injected did not complete (${unserved[t]!}), so the client is taken not to serve it: its scenarios and fast-check draws are not run`,
          ]
        : [],
    ),
    unserved,
    closeTimedOut: runs.some((r) => r.closeTimedOut === true),
  };
}

/** The per-property results as scenarios are folded in (in scenario order, so the first failure is stable). */
class Results {
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

  add(judged: Judged): ScenarioOutcome {
    const { sourced, history, error } = judged;
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

  properties(): ClientPropertyResult[] {
    const notRun = this.notRun.length > 0 ? `; not run: ${this.notRun.join('; ')}` : '';
    return [...this.byId.values()].map((p) => (p.status === 'skip' && notRun ? { ...p, reason: `${p.reason ?? ''}${notRun}` } : p));
  }
}

const interleavingName = (seed: number, path: string): string => `fc:${seed}:${path}`;

/** The scenario `{seed, path}` names. */
function sourcedAt(path: string, seed: number | undefined, timeoutMs: number, served: readonly Transport[] = probed): SourcedScenario {
  if (path.startsWith('fixed:') || path.startsWith('model:')) {
    const all = deterministicScenarios(timeoutMs, path.startsWith('model:'));
    const found = all.find((s) => s.path === path);
    if (!found) throw new RangeError(`no scenario ${path}; scenarios: ${all.map((s) => s.path).join(', ')}`);
    return { ...found, seed: -1 };
  }
  if (seed === undefined) throw new RangeError('replaying a fast-check path needs its --seed');
  return { scenario: scenarioOf(drawnAt(seed, path, served), timeoutMs, interleavingName(seed, path)), source: 'fast-check', path, seed };
}

/**
 * Runs the client scenarios against the factory and reports each client property: `fail` with the
 * first scenario that broke it (a fast-check run shrunk first), `pass` when judged somewhere and
 * never broken, `skip` when no scenario that ran exercised it. Scenarios: the fixed catalog, the
 * model's, then `runs` fast-check interleavings of calls and faults under `seed`; or, with `path`,
 * the one scenario it names. First the client is probed ({@link probeClient}): only the transports
 * it serves are run, and the report's `abilities` says what was found.
 * @throws ClientUnusable when the client completes a plain call under neither transport, or a
 * `path` names a scenario over a transport it does not serve
 */
export async function runClientCheck(factory: ClientFactory, options: ClientCheckOptions): Promise<ClientReport> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 1000;
  const ids = options.only ?? [...clientPropertyIds];
  const width = Math.max(1, options.concurrency ?? 1);
  const bounds: ClientBounds = {
    ...(options.connectMs !== undefined ? { connectMs: options.connectMs } : {}),
    ...(options.closeMs !== undefined ? { closeMs: options.closeMs } : {}),
  };
  const results = new Results(ids);
  // A replay path that names nothing is a usage error: found before the client is probed. A
  // fast-check path names a draw over the transports the client serves: resolved after the probe.
  if (options.path !== undefined && /^(fixed|model):/.test(options.path)) sourcedAt(options.path, options.seed, timeoutMs);
  if (options.path !== undefined && !/^(fixed|model):/.test(options.path) && options.seed === undefined)
    throw new RangeError('replaying a fast-check path needs its --seed');
  const probe = await probeClient(factory, timeoutMs, bounds);
  const served = probe.transports;
  const unserved = probed.filter((t) => !served.includes(t));
  // Said of every property left unjudged: which of them the scenarios not run would have judged is not known here.
  results.notRun = unserved.map((t) => `the ${transportNames[t]} scenarios (the client does not serve ${transportNames[t]}: ${probe.unserved[t]!})`);
  const report = (extra: Partial<ClientReport> = {}): ClientReport => {
    const closeMs = bounds.closeMs ?? 5_000;
    const closeNote =
      results.closeTimeouts > 0
        ? [`the client's close() did not finish within ${closeMs} ms in ${results.closeTimeouts} scenario(s)`]
        : probe.closeTimedOut
          ? [`the client's close() did not finish within ${closeMs} ms (probe)`]
          : [];
    return {
      client: { name: options.name },
      timeoutMs,
      abilities: { transports: served, notes: [...probe.notes, ...closeNote] },
      scenarios: results.outcomes,
      properties: results.properties(),
      ms: performance.now() - started,
      ...extra,
    };
  };
  const fold = (judged: Judged): void => {
    const outcome = results.add(judged);
    options.onScenario?.(outcome);
  };

  if (options.path !== undefined) {
    const sourced = sourcedAt(options.path, options.seed, timeoutMs, served);
    if (!served.includes(sourced.scenario.transport)) {
      const t = sourced.scenario.transport;
      throw new ClientUnusable(
        `${options.path} runs over ${transportNames[t]}, which the client does not serve (a plain tools/call: ${probe.unserved[t] ?? '?'})`,
      );
    }
    fold(await runJudged(factory, sourced, timeoutMs, ids, bounds));
    return report();
  }

  // Scenarios may run several at once; they are folded in catalog (and run) order. A transport
  // the client does not serve is not run: its scenarios could only fail to start.
  const named = options.scenarios;
  const deterministic = deterministicScenarios(timeoutMs, options.model !== false)
    .filter((s) => (!named || named.includes(s.scenario.name)) && (options.fixed !== false || s.source !== 'fixed') && served.includes(s.scenario.transport))
    .map((s) => ({ ...s, seed: -1 }));
  if (named && named.length > 0 && deterministic.length === 0) {
    // Nothing would run: a check of nothing must not pass.
    throw new ClientUnusable(
      `the scenarios named (${named.join(', ')}) run only over transports the client does not serve (${unserved.map((t) => `${transportNames[t]}: ${probe.unserved[t]!}`).join('; ')})`,
    );
  }
  const failing = () => results.properties().some((p) => p.status === 'fail');
  const stop = () => options.failFast === true && failing();
  // Runs `list` (several at once) and folds each result in list order as soon as its turn comes.
  const runAll = async (list: SourcedScenario[], each: (judged: Judged, i: number) => void): Promise<void> => {
    const done: Array<Judged | undefined> = new Array(list.length);
    let next = 0;
    await inParallel(list.length, width, async (i) => {
      if (stop()) return;
      done[i] = await runJudged(factory, list[i]!, timeoutMs, ids, bounds);
      for (; next < list.length && done[next] !== undefined; next++) each(done[next]!, next);
    });
  };
  const progress = (phase: ClientCheckProgress['phase'], done: number, total: number): void =>
    options.onProgress?.({
      phase,
      done,
      total,
      elapsedMs: performance.now() - started,
      broke: results
        .properties()
        .filter((p) => p.status === 'fail')
        .map((p) => p.id),
    });
  await runAll(deterministic, (judged, i) => {
    fold(judged);
    progress('scenarios', i + 1, deterministic.length);
  });

  const runs = named ? 0 : (options.runs ?? 0);
  if (runs === 0 || stop()) return report();
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const drawn = sampleDrawn(seed, runs, served);
  const interleaved = drawn.map(
    (d, i): SourcedScenario => ({ scenario: scenarioOf(d, timeoutMs, interleavingName(seed, String(i))), source: 'fast-check', path: String(i), seed }),
  );
  // A property first broken by an interleaving is reported with that run shrunk.
  const firstBroken = new Map<ClientPropertyId, number>();
  await runAll(interleaved, (judged, i) => {
    const alreadyFailing = new Set(
      results
        .properties()
        .filter((p) => p.status === 'fail')
        .map((p) => p.id),
    );
    fold(judged);
    for (const { id, verdict } of judged.verdicts) if (verdict.status === 'fail' && !alreadyFailing.has(id) && !firstBroken.has(id)) firstBroken.set(id, i);
    progress('interleavings', i + 1, drawn.length);
  });
  const ran = () => ({ interleavings: { runs: results.outcomes.filter((o) => o.source === 'fast-check').length, seed } });
  if (options.failFast) return report(ran());
  const shrinkUntil = performance.now() + (options.shrinkMs ?? 10_000);
  for (const [id, run] of firstBroken) {
    const left = shrinkUntil - performance.now();
    if (left <= 0) break;
    let smallest: Judged | undefined;
    const shrunk = await shrinkDrawn(seed, String(run), left, served, async (d) => {
      const judged = await runJudged(
        factory,
        { scenario: scenarioOf(d, timeoutMs, 'shrinking'), source: 'fast-check', path: '', seed },
        timeoutMs,
        [id],
        bounds,
      );
      const failed = judged.verdicts[0]?.verdict.status === 'fail';
      if (failed) smallest = judged;
      return failed;
    });
    if (!shrunk || !smallest) continue;
    // Run once more under the shrunk path's own name, so the counterexample is what `--path` replays.
    const sourced: SourcedScenario = {
      scenario: scenarioOf(shrunk.drawn, timeoutMs, interleavingName(seed, shrunk.path)),
      source: 'fast-check',
      path: shrunk.path,
      seed,
    };
    const replayed = await runJudged(factory, sourced, timeoutMs, [id], bounds);
    const verdict = replayed.verdicts[0]?.verdict;
    if (verdict?.status === 'fail') results.fail(id, replayed, verdict);
  }
  return report(ran());
}
