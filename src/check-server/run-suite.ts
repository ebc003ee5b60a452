/**
 * `runSuite(candidate, options)`: probes what the candidate serves, runs the model-coverage
 * scenarios, the probes and the fast-check interleavings against it over real HTTP, judges
 * every history, shrinks each failure, and returns one result per property.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { probeAbilities } from './abilities.js';
import { boundsOf, clientCursorPaths, coverageBounds, planCoverage, type CoveragePlan } from './coverage.js';
import { replayPathOf, runCommands, scenarios as interleavedScenarios } from './interleavings.js';
import { probes, runProbe } from './probes.js';
import { accepts, CandidateLost, metRefusal } from './reachable.js';
import { runSteps, type ScenarioContext } from './scenario.js';
import type { CandidateTarget, ClientSettings, CoverageReport, SuiteOptions, SuiteProgress, SuiteReport } from './types.js';
import { causeRank, judgeHistory, Verdicts, type ScenarioRecord } from './verdicts.js';
import { coveragePathOf, likeStep, type Witness, shows, showsGroup, witnessPathOf, witnessPool, type WitnessTarget } from './witnesses.js';
import type { Level } from '../../properties/definition.js';
import type { Judgement } from '../../properties/judgement.js';

/** The reference client: cursor on drain, dedup by event ID, retry a call that timed out. */
export const referenceClient: ClientSettings = { cursorAdvance: 'onDrain', dedup: true, retryOnTimeout: true };

/** fast-check interleavings per check unless told otherwise (the CLI's `--runs` default too). */
export const defaultRuns = 200;

const maxCommands = 40;
/** Time each property's shrinking may take by default. */
const shrinkBudgetMs = 5000;
/** Scenarios (coverage, interleavings) in flight at once: a quiet candidate costs its full-length waits side by side. */
const concurrency = 16;

/** Runs `task(0..count-1)` with at most `width` in flight. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

/**
 * Checks a candidate and reports per property.
 *
 * @example
 * ```ts
 * const report = await runSuite({ name: 'mine', url: 'http://127.0.0.1:3000' }, { runs: 100, seed: 42 });
 * report.properties.filter((p) => p.status === 'fail');
 * ```
 * @throws CandidateUnusable when the candidate answers `initialize` under neither transport.
 * @throws CandidateLost when it stops accepting connections during the check.
 */
export async function runSuite(target: CandidateTarget, options: SuiteOptions = {}): Promise<SuiteReport> {
  const started = performance.now();
  const budgetMs = options.maxMs ?? 120_000;
  const timeoutMs = options.timeoutMs ?? 2000;
  const left = () => budgetMs - (performance.now() - started);
  // Set when the candidate stopped accepting connections: no scenario starts after that.
  let lost: string | undefined;
  const goOn = () => lost === undefined && left() > 0;
  /** After a scenario that met a refused connection: is the candidate still there? */
  const watch = async (record: { history: ScenarioRecord['history']; path: string }) => {
    if (lost === undefined && metRefusal(record.history) && !(await accepts(target.url, timeoutMs))) lost = record.path;
  };
  const ids: PropertyId[] = options.only ?? [...propertyIds];
  const abilities = await probeAbilities(target, timeoutMs);
  const context: ScenarioContext = {
    target,
    abilities,
    client: { ...referenceClient, ...options.client },
    timeoutMs,
    runTag: randomBytes(3).toString('hex'),
  };
  const verdicts = new Verdicts(ids);
  const report: SuiteReport = { candidate: { name: target.name, url: target.url }, properties: [], abilities };
  if (target.version !== undefined) report.candidate.version = target.version;
  let scenarios = 0;
  const progress = (phase: SuiteProgress['phase'], done: number, total: number, broke: PropertyId[], record?: ScenarioRecord) =>
    options.onProgress?.({
      scenarios: phase === 'shrinking' ? scenarios : ++scenarios,
      phase,
      done,
      total,
      elapsedMs: performance.now() - started,
      broke,
      ...(record ? { waitsRanOut: record.history.entries.filter((e) => e.type === 'failure' && e.reason === 'timeout').length } : {}),
    });

  const thrownIfLost = () => {
    // Scenarios cut short by the loss would be judged on a server that was not there: no verdict is given.
    if (lost !== undefined)
      throw new CandidateLost(
        `stopped accepting connections during the check (first refused in scenario ${lost}, after ${scenarios} scenarios); no verdict is given`,
        { url: target.url },
      );
  };

  if (options.path !== undefined) {
    await replay(context, options, verdicts, ids, watch);
    thrownIfLost();
    report.properties = verdicts.results();
    withDivergences(report, verdicts);
    return report;
  }

  // Probes first: they are few and quick, and some properties only they can reach.
  const applicable = probes.filter((probe) => probe.applies(context) && probe.for.some((id) => ids.includes(id)));
  for (const [i, probe] of applicable.entries()) {
    if (!goOn()) break;
    const record = await runProbe(probe, context);
    await watch(record);
    progress('probes', i + 1, applicable.length, verdicts.add(record), record);
  }

  if (options.coverage !== false) {
    const plan = planCoverage(abilities, context.client);
    const coverage: CoverageReport = { states: plan.states, reached: 0, scenarios: 0 };
    // Scenarios are independent (each its own sessions and labels): run several at once, so a
    // candidate that stays quiet costs its full-length waits in parallel rather than one after another.
    await inParallel(plan.paths.length, concurrency, async (i) => {
      if (!goOn()) return;
      const path = plan.paths[i]!;
      const record = await runSteps(context, boundsOf(plan, i), path, { seed: -1, path: `coverage:${i}` });
      await watch(record);
      const broke = verdicts.add(record);
      coverage.scenarios++;
      // A scenario that diverged reached only the states before its divergence.
      if (record.followed === path.length) coverage.reached += plan.fresh[i]!;
      progress('coverage', coverage.scenarios, plan.paths.length, broke, record);
    });
    report.coverage = coverage;
  }

  const runs = options.runs ?? defaultRuns;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  // The first interleaving in which each property failed.
  const firstFailure = new Map<PropertyId, number>();
  if (runs > 0 && goOn()) {
    let done = 0;
    const interleavingsStarted = performance.now();
    // fast-check's runs for this seed, in order: run i is what `{seed, path: "i"}` replays. They
    // are independent, so they run several at once, like the coverage scenarios.
    const planned = fc.sample(interleavedScenarios(maxCommands), { seed, numRuns: runs });
    await inParallel(planned.length, concurrency, async (run) => {
      if (!goOn()) return;
      const { record, judged } = await runCommands(context, planned[run]!, ids, { seed, path: String(run) });
      await watch(record);
      done++;
      const broke = verdicts.add(record, judged);
      for (const id of broke) if (!(firstFailure.get(id)! <= run)) firstFailure.set(id, run);
      progress('interleavings', done, planned.length, broke, record);
    });
    report.interleavings = { runs: done, seed, ms: performance.now() - interleavingsStarted };
  }

  // Each failure's reported run and group as the scenarios left them, before any witness replaces them.
  const failed = ids.filter((id) => verdicts.failed(id));
  const found = new Map(failed.map((id) => [id, { from: verdicts.counterexample(id)!, levels: verdicts.groupLevels(id) }]));
  // The model's shortest witnesses first (shrinking a random run rarely gets as short): a failure
  // one shows (at its level, with its cause) is reported with it, and the rest are shrunk as fast-check does.
  const witnessed = new Set<PropertyId>();
  if (options.coverage !== false && failed.length > 0 && goOn()) {
    const targets = new Map(
      failed.map((id) => {
        const { steps } = verdicts.counterexample(id)!;
        const anchor = verdicts.stepOf(id);
        return [
          id,
          {
            level: verdicts.levelOf(id)!,
            cause: verdicts.causeOf(id)!,
            length: steps.length,
            like: likeStep(anchor === undefined ? undefined : steps[anchor - 1]),
          },
        ];
      }),
    );
    const witnesses = await shortestWitnesses(
      context,
      planCoverage(abilities, context.client),
      ids,
      targets,
      Math.min(left(), (options.shrinkMs ?? shrinkBudgetMs) * targets.size),
      watch,
      goOn,
    );
    for (const [id, run] of witnesses) {
      verdicts.setCounterexample(id, run.record, run.judged);
      witnessed.add(id);
    }
  }
  // Causes first: a consequence is reported with its cause's (shrunk) run, so it is not shrunk on its own.
  const shrinkOne = async (id: PropertyId): Promise<void> => {
    if (verdicts.explained(id)) return;
    // Shrink from the reported run when it is an interleaving, keeping the failures that rest on its
    // step together. A coverage or probe run that shows a group stays (a model path or a fixed probe
    // already); one that shows this failure alone gives way to the shrunk first failing interleaving
    // (a coverage run only if that is no longer).
    const { from, levels: groupLevels } = found.get(id)!;
    const interleaved = from.seed === seed && /^\d+$/.test(from.path);
    const group = [...groupLevels.keys()];
    // A witnessed failure keeps its witness; its consequences without one of their own still get the shrunk group.
    const unwitnessed = group.filter((m) => m !== id && !witnessed.has(m));
    if (witnessed.has(id) && (!interleaved || unwitnessed.length === 0)) return;
    if (!interleaved && group.length > 1) return;
    // Shrinking is bounded per property: a smaller counterexample is worth seconds, not minutes.
    const start = interleaved ? from.path : String(firstFailure.get(id)!);
    // A shrink keeps each failure of the group at its level in the run shrunk (a lost response stays one).
    const levels = interleaved ? groupLevels : new Map([[id, verdicts.levelOf(id)!]]);
    const shrunk = await shrink(context, ids, levels, seed, start, Math.min(left(), options.shrinkMs ?? shrinkBudgetMs), watch, goOn);
    if (!shrunk) return;
    // A coverage run gives way only to one no longer: a coverage prefix is already a model's shortest path.
    const current = verdicts.counterexample(id)!;
    if (!interleaved && current.path.startsWith('coverage:') && shrunk.record.steps.length > current.steps.length) return;
    for (const m of witnessed.has(id) ? unwitnessed : [id]) verdicts.setCounterexample(m, shrunk.record, shrunk.judged);
  };
  const failing = [...firstFailure.keys()].sort((a, b) => causeRank(a) - causeRank(b));
  for (const [i, id] of failing.entries()) {
    if (!goOn()) break;
    await shrinkOne(id);
    progress('shrinking', i + 1, failing.length, []);
  }
  thrownIfLost();
  if (left() <= 0) {
    verdicts.skipRest(`the suite's time budget (${Math.round(budgetMs / 1000)} s) ran out first`);
    report.cutShort = true;
  }
  report.properties = verdicts.results();
  withDivergences(report, verdicts);
  return report;
}

function withDivergences(report: SuiteReport, verdicts: Verdicts): void {
  const divergences = verdicts.divergences();
  if (divergences.length > 0) report.divergences = divergences;
}

/**
 * Shrinks the failing run at `path` for a group of failures resting on one step: a smaller run
 * counts only where all of them still fail, on one step. Returns
 * fast-check's final counterexample: its path, and the trace and judgements of that very run.
 * fast-check moves to each failing shrink it tries and reports the last one, so the last failing
 * run is the one its path names.
 */
async function shrink(
  context: ScenarioContext,
  ids: PropertyId[],
  levels: Map<PropertyId, Level>,
  seed: number,
  path: string,
  budgetMs: number,
  watch: (record: ScenarioRecord) => Promise<void>,
  goOn: () => boolean,
) {
  let last: { record: ScenarioRecord; judged: Map<PropertyId, Judgement> } | undefined;
  const details = await fc.check(
    fc.asyncProperty(interleavedScenarios(maxCommands), async (commands) => {
      // Once the candidate is gone, every shrink is taken as passing: fast-check ends at once.
      if (!goOn()) return true;
      const { record, judged } = await runCommands(context, commands, ids, { seed, path });
      await watch(record);
      if (!goOn()) return true;
      if (!showsGroup(record, judged, levels)) return true;
      last = { record, judged };
      return false;
    }),
    { seed, path, interruptAfterTimeLimit: Math.max(1, budgetMs), markInterruptAsFailure: false },
  );
  if (!last || !details.failed) return undefined;
  // The path a replay needs: fast-check's, and which commands ran (after '@').
  const replayPath = details.counterexample ? replayPathOf(details.counterexample[0]) : undefined;
  last.record.path = `${details.counterexamplePath ?? path}${replayPath ? `@${replayPath}` : ''}`;
  return last;
}

/**
 * For each failed property, the shortest prefix of a coverage scenario whose run on the candidate
 * shows it as its target says (see `shows`), if one is shorter than the run it is reported with.
 * Prefixes run shortest first, several at once, while one could still be shorter than what was
 * found and the budget lasts.
 */
async function shortestWitnesses(
  context: ScenarioContext,
  plan: CoveragePlan,
  ids: PropertyId[],
  targets: Map<PropertyId, WitnessTarget>,
  budgetMs: number,
  watch: (record: ScenarioRecord) => Promise<void>,
  goOn: () => boolean,
): Promise<Map<PropertyId, { record: ScenarioRecord; judged: Map<PropertyId, Judgement> }>> {
  const deadline = performance.now() + budgetMs;
  const found = new Map<PropertyId, { record: ScenarioRecord; judged: Map<PropertyId, Judgement>; at: number }>();
  // Shortest first; of one length, first the prefixes that end in a step like one a failure rests on.
  const like = (w: Witness) => [...targets.values()].some((t) => t.like(w.steps.at(-1)!));
  const pool = witnessPool(plan, clientCursorPaths(context.abilities, context.client))
    .map((w) => ({ w, first: like(w) ? 0 : 1 }))
    .sort((a, b) => a.w.steps.length - b.w.steps.length || a.first - b.first)
    .map(({ w }) => w);
  // The longest run that could still beat a target's counterexample (or the witness found for it so far).
  const wanted = () => Math.max(...[...targets].map(([id, t]) => found.get(id)?.record.steps.length ?? t.length)) - 1;
  let next = 0;
  // Many of these wait out a stall: more at once than the CPU-bound phases, each taking the next
  // prefix while one shorter than it could beat what was found. A run is at least as long as its steps.
  await inParallel(pool.length, concurrency, async () => {
    const at = next++;
    const witness = pool[at]!;
    if (!goOn() || performance.now() >= deadline || witness.steps.length > wanted()) return;
    const record = await runSteps(context, witness.bounds, witness.steps, { seed: -1, path: witness.path });
    await watch(record);
    if (!goOn()) return;
    const judged = judgeHistory(record.history, ids);
    for (const [id, target] of targets) {
      const best = found.get(id);
      const length = record.steps.length;
      // Shorter, or as short and earlier in the pool: the same witness whichever run ended first.
      if (
        (best ? length < best.record.steps.length || (length === best.record.steps.length && at < best.at) : length < target.length) &&
        shows(record, judged, id, target)
      ) {
        found.set(id, { record, judged, at });
      }
    }
  });
  return found;
}

/** Replays one counterexample: `coverage:N`, `coverage:N:K`, `witness:N`, `probe:NAME`, or a fast-check path with its seed. */
async function replay(
  context: ScenarioContext,
  options: SuiteOptions,
  verdicts: Verdicts,
  ids: PropertyId[],
  watch: (record: ScenarioRecord) => Promise<void>,
): Promise<void> {
  const path = options.path!;
  const coverage = coveragePathOf(path);
  if (!coverage && path.startsWith('coverage:')) throw new RangeError(`no coverage scenario ${path}: coverage:N or coverage:N:K`);
  if (coverage) {
    const plan = planCoverage(context.abilities, context.client);
    const i = coverage.scenario;
    const whole = plan.paths[i];
    if (!whole) throw new RangeError(`no coverage scenario coverage:${i} for this candidate (${plan.paths.length} scenarios)`);
    // `coverage:N:K`: the first K steps (a model's shortest witness of a failure).
    const steps = coverage.steps === undefined ? whole : whole.slice(0, coverage.steps);
    if (coverage.steps !== undefined && (coverage.steps < 1 || coverage.steps > whole.length))
      throw new RangeError(`no ${path}: coverage:${i} has ${whole.length} steps`);
    const record = await runSteps(context, boundsOf(plan, i), steps, { seed: -1, path });
    await watch(record);
    verdicts.add(record);
    return;
  }
  const witness = witnessPathOf(path);
  if (witness === undefined && path.startsWith('witness:')) throw new RangeError(`no ${path}: witness:N`);
  if (witness !== undefined) {
    const paths = clientCursorPaths(context.abilities, context.client);
    const steps = paths[witness];
    if (!steps) throw new RangeError(`no ${path} for this candidate (${paths.length} witness paths)`);
    const record = await runSteps(context, coverageBounds(context.abilities), steps, { seed: -1, path });
    await watch(record);
    verdicts.add(record);
    return;
  }
  if (path.startsWith('probe:')) {
    const probe = probes.find((p) => p.name === path.slice('probe:'.length));
    if (!probe) throw new RangeError(`no probe ${path}; probes: ${probes.map((p) => p.name).join(', ')}`);
    const record = await runProbe(probe, context);
    await watch(record);
    verdicts.add(record);
    return;
  }
  if (options.seed === undefined) throw new RangeError('replaying a fast-check path needs its --seed');
  const seed = options.seed;
  const [fcPath, replayPath] = path.split('@') as [string, string | undefined];
  // The path names one run. From a path, fast-check goes on to the runs after it while they pass:
  // they are other scenarios, and would be reported under this path. A candidate that fails
  // only sometimes passes the replay instead.
  let replayed = false;
  await fc.check(
    fc.asyncProperty(interleavedScenarios(maxCommands, replayPath), async (commands) => {
      if (replayed) return true;
      replayed = true;
      const { record, judged } = await runCommands(context, commands, ids, { seed, path });
      await watch(record);
      verdicts.add(record, judged);
      return ![...judged.values()].some((j) => j.status === 'fail');
    }),
    { seed, path: fcPath, numRuns: 1, endOnFailure: true },
  );
}
