/**
 * Scenarios from fast-check: `fc.commands` over the model's step kinds (send, receive, drain,
 * drop, resume (same transport or migration; own, stale or garbage cursor), re-initialize,
 * DELETE), each resolved against the oracle world so only steps the model allows are taken.
 * Every run ends with the driver settling, and its history is judged.
 */
import fc from 'fast-check';
import type { Bounds } from '../../model/bounds.js';
import { candidateBounds } from './coverage.js';
import type { PropertyId } from '../../model/property-ids.js';
import type { ResumeCursor, ResumeVia, WorldStep } from '../../model/world-types.js';
import type { Judgement } from '../../properties/judgement.js';
import type { ScenarioDriver } from './driver.js';
import { newDriver, type ScenarioContext } from './scenario.js';
import { judgeHistory, type ScenarioRecord } from './verdicts.js';

/** Bounds for interleavings against a candidate: past the coverage scenarios, still quick. */
function interleavingBounds(context: ScenarioContext): Bounds {
  return candidateBounds(context.abilities, { calls: 3, notifications: 2, drops: 3, resumes: 3, inFlight: 2, undrained: 2 });
}

type Kind = WorldStep['type'];
type Model = { driver: ScenarioDriver };

/** One abstract step: a choice among the steps of some kinds that the model allows now. */
class StepCommand implements fc.AsyncCommand<Model, Model> {
  constructor(
    readonly kinds: readonly Kind[],
    readonly pick: number,
    readonly fits: (s: WorldStep) => boolean,
    readonly name: string,
  ) {}

  resolve(driver: ScenarioDriver): WorldStep | undefined {
    // Steps the model allows and the candidate still follows (after a divergence, the rest of the scenario).
    const options = driver.drivable().filter((s) => this.kinds.includes(s.type) && this.fits(s));
    return options.length > 0 ? options[this.pick % options.length] : undefined;
  }

  check(m: Readonly<Model>): boolean {
    return this.resolve(m.driver as ScenarioDriver) !== undefined;
  }

  async run(m: Model): Promise<void> {
    const step = this.resolve(m.driver);
    if (step) await m.driver.apply(step);
  }

  toString(): string {
    return this.name;
  }
}

const pick = fc.nat({ max: 7 });
const any = () => true;

/**
 * The commands. Traffic (a send, receive or drain the model allows) is the commonest, so runs
 * carry messages between their disruptions: drops, resumes (same transport or migration; own,
 * garbage or stale cursor), re-initializations after a refusal, and DELETE.
 */
function stepCommands(maxCommands: number, replayPath?: string) {
  const vias: ResumeVia[] = ['same', 'other'];
  const cursors: ResumeCursor[] = ['own', 'own', 'own', 'garbage', 'stale'];
  const traffic = pick.map((n) => new StepCommand(['SEND', 'RECEIVE', 'DRAIN'], n, any, `traffic#${n}`));
  const call = fc.boolean().map((u) => new StepCommand(['CALL'], 0, (s) => s.type === 'CALL' && s.unsolicited === u, u ? 'call(unsolicited)' : 'call'));
  return fc.commands(
    [
      traffic,
      traffic,
      traffic,
      traffic,
      traffic,
      traffic,
      call,
      call,
      pick.map((n) => new StepCommand(['DROP'], n, any, `drop#${n}`)),
      fc
        .tuple(pick, fc.constantFrom(...vias), fc.constantFrom(...cursors))
        .map(
          ([n, via, cursor]) =>
            new StepCommand(['RESUME'], n, (s) => s.type === 'RESUME' && s.via === via && s.cursor === cursor, `resume(${via},${cursor})#${n}`),
        ),
      fc
        .constantFrom('sse', 'streamable')
        .map((t) => new StepCommand(['INITIALIZE'], 0, (s) => s.type === 'INITIALIZE' && s.transport === t, `reinitialize(${t})`)),
      fc.constant(new StepCommand(['DELETE'], 0, any, 'delete')),
    ],
    replayPath === undefined ? { maxCommands, size: 'max' } : { maxCommands, size: 'max', replayPath },
  );
}

/**
 * A run: the transport the client starts with, then the commands. `replayPath` is fast-check's
 * record of which commands ran, needed with `{seed, path}` to replay a shrunk run exactly.
 */
export function scenarios(maxCommands: number, replayPath?: string) {
  return fc.tuple(fc.constantFrom<'sse' | 'streamable'>('streamable', 'sse'), stepCommands(maxCommands, replayPath));
}

/** The replay path fast-check prints in a command sequence's description, if any. */
export function replayPathOf(run: readonly [unknown, unknown]): string | undefined {
  return /replayPath="([^"]*)"/.exec(String(run[1]))?.[1];
}

export interface InterleavingRun {
  record: ScenarioRecord;
  judged: Map<PropertyId, Judgement>;
}

/** Runs one command sequence against the candidate: a fresh driver, the steps, settle, judge. */
export async function runCommands(
  context: ScenarioContext,
  [transport, commands]: ['sse' | 'streamable', Iterable<fc.AsyncCommand<Model, Model>>],
  ids: readonly PropertyId[],
  name: { seed: number; path: string },
): Promise<InterleavingRun> {
  const driver = newDriver(context, interleavingBounds(context));
  try {
    const start = context.abilities.transports.includes(transport) ? transport : context.abilities.transports[0]!;
    await driver.apply({ type: 'INITIALIZE', transport: start });
    await fc.asyncModelRun(() => ({ model: { driver }, real: { driver } }), commands);
    await driver.settle();
  } finally {
    driver.close();
  }
  const record: ScenarioRecord = { history: driver.history, steps: driver.steps, ...name };
  return { record, judged: judgeHistory(driver.history, ids) };
}
