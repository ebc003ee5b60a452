/**
 * Checks a client: probes which transports it serves ({@link probeClient}), runs the client
 * scenarios over those (the model's, the fixed catalog, then fast-check interleavings, a failure
 * shrunk) each with {@link runScenario}, and folds every judged scenario into the report's results.
 */
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import type { Transport } from '../../model/transport.js';
import { ClientUnusable, transportNames } from './abilities.js';
import type { ClientFactory } from './adapters/contract.js';
import { drawnAt, sampleDrawn, scenarioOf, shrinkDrawn } from './interleavings.js';
import { modelScenarios } from './model-scenarios.js';
import { clientMutants } from './mutants/index.js';
import { probeClient, probed } from './probe-client.js';
import type { ClientReport, ScenarioOutcome } from './report.js';
import { Results, type Judged, type SourcedScenario } from './results.js';
import { judgeClientHistory, runScenario, type ClientBounds } from './run-scenario.js';
import { clientScenarios } from './scenarios.js';

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
