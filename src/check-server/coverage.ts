/**
 * Scenarios from the model: the shortest path to every state of the oracle world (within small
 * bounds, steps this candidate can be asked), keeping only paths no other path extends, so that
 * running them exercises every state the specification distinguishes at least once. Beside them,
 * one scenario per stream kind (a POST response stream, the standalone GET stream, the legacy
 * stream) drops that stream, resumes it and then has it carry live traffic: shortest paths alone
 * rarely reach a resumed stream that carries anything afterwards (the standalone one needs a
 * second unsolicited call for traffic sent after its resume). And two scenarios with a second
 * call: one presents an earlier session's cursor on a stream still owed its response, one makes a
 * call while the legacy stream is down and resumes it.
 */
import { getShortestPaths } from 'xstate/graph';
import { defaultBounds, type Bounds } from '../../model/bounds.js';
import { worldKey } from '../../model/world-key.js';
import { worldMachine } from '../../model/world-machine.js';
import type { StreamKind } from '../../model/session-types.js';
import type { World, WorldStep } from '../../model/world-types.js';
import { step as stepWorld } from '../../model/world.js';
import { drivableSteps, oracleWorld, oraclePolicy } from './lockstep.js';
import type { CandidateAbilities, ClientSettings } from './types.js';

/**
 * Bounds of a world this candidate can be driven through: the sizes given, with notifications,
 * migrations and unsolicited calls only where its fixtures and transports allow them.
 */
export function candidateBounds(
  abilities: CandidateAbilities,
  sizes: Pick<Bounds, 'calls' | 'drops' | 'resumes' | 'inFlight' | 'undrained'> & { notifications: number },
): Bounds {
  return {
    ...defaultBounds,
    ...sizes,
    notifications: abilities.fixtures.emit ? sizes.notifications : 0,
    reinitializes: 1,
    retries: 0,
    deletes: 1,
    migrations: abilities.transports.length === 2 ? 1 : 0,
    foreignCursors: 1,
    // The driver does not yet move a legacy session to /mcp by a cursorless call.
    moves: 0,
    unsolicited: abilities.fixtures.emitUnsolicited ? 1 : 0,
    unclean: 1,
  };
}

/** Small enough to run against a candidate in seconds, large enough for every kind of step. */
export function coverageBounds(abilities: CandidateAbilities): Bounds {
  return candidateBounds(abilities, { calls: 1, notifications: 1, drops: 1, resumes: 1, inFlight: 1, undrained: 1 });
}

export interface CoveragePlan {
  bounds: Bounds;
  /** Distinct model states reachable with drivable steps. */
  states: number;
  /** The targeted scenarios (stream kinds, stale cursor, missed call), then one path per maximal shortest path (each covers every state along it). */
  paths: WorldStep[][];
  /** For each path, the number of distinct states along it that no earlier shortest path covered (0 for the targeted scenarios). */
  fresh: number[];
  /** Which stream kind each stream-kind scenario exercises, by index into `paths`. */
  streamKinds: Map<number, StreamKind>;
  /** Bounds a path needs beyond `bounds` (the second call of the standalone, stale-cursor and missed-call scenarios), by index into `paths`. */
  wider: Map<number, Bounds>;
}

/** The bounds path `i` of `plan` runs within. */
export function boundsOf(plan: CoveragePlan, i: number): Bounds {
  return plan.wider.get(i) ?? plan.bounds;
}

/** A path under construction: `take` appends a step if the model allows it and the candidate can be asked it. */
interface PathBuilder {
  readonly path: WorldStep[];
  /** The model's world after the steps taken so far. */
  readonly world: World;
  take(step: WorldStep): boolean;
}

function pathBuilder(abilities: CandidateAbilities, client: ClientSettings, bounds: Bounds): PathBuilder {
  let world = oracleWorld(client, bounds);
  const path: WorldStep[] = [];
  return {
    path,
    get world() {
      return world;
    },
    take(s: WorldStep): boolean {
      const key = JSON.stringify(s);
      if (!drivableSteps(world, abilities).some((x) => JSON.stringify(x) === key)) return false;
      world = stepWorld(world, s);
      path.push(s);
      return true;
    },
  };
}

/**
 * A path that drops a stream of `kind`, resumes it with its own cursor and then receives and
 * drains what the server sends on it afterwards (live traffic), with every step one the model
 * allows and the candidate can be asked; undefined when this candidate cannot be driven so.
 */
function streamKindPath(kind: StreamKind, abilities: CandidateAbilities, client: ClientSettings, bounds: Bounds): WorldStep[] | undefined {
  const transport = kind === 'legacy' ? 'sse' : 'streamable';
  if (!abilities.transports.includes(transport)) return undefined;
  if (kind === 'standalone') return standalonePath(abilities, client, bounds);
  // First with traffic before the drop too; without it when nothing would be left to carry after.
  for (const before of [1, 0]) {
    const built = pathBuilder(abilities, client, bounds);
    const { path } = built;
    const take = (step: WorldStep) => built.take(step);
    const traffic = (stream: string, most: number): number => {
      let sent = 0;
      while (sent < most && take({ type: 'SEND', stream })) {
        if (!take({ type: 'RECEIVE', stream }) || !take({ type: 'DRAIN', stream })) return -1;
        sent++;
      }
      return sent;
    };
    if (!take({ type: 'INITIALIZE', transport })) return undefined;
    // The model resumes a stream that is owed something: a call is made first.
    if (!take({ type: 'CALL', unsolicited: false })) return undefined;
    const target = built.world.client.streams.filter((s) => s.kind === kind).at(-1)?.id;
    if (target === undefined) return undefined;
    if (traffic(target, before) !== before) continue;
    if (!take({ type: 'DROP', stream: target }) || !take({ type: 'RESUME', stream: target, via: 'same', cursor: 'own' })) continue;
    if (built.world.client.phase !== 'ready') continue;
    if (traffic(target, Number.MAX_SAFE_INTEGER) > 0) return path;
  }
  return undefined;
}

/** The bounds of the standalone stream's scenario: a second unsolicited call, made after the resume. */
function standaloneBounds(bounds: Bounds): Bounds {
  return { ...bounds, calls: Math.max(bounds.calls, 2), unsolicited: Math.max(bounds.unsolicited, 2) };
}

/**
 * The standalone GET stream's scenario: an unsolicited call whose notification is received and
 * drained (so the stream has carried an event ID, whether or not the server primes it), the drop,
 * the resume with that cursor, then a second unsolicited call whose notifications the resumed stream
 * carries live. Resuming with a priming event's ID instead would leave a server that sends none
 * (SDK 1.32.2's GET stream) never resumed with a cursor; and the first call's notifications alone
 * would reach the resumed stream only as replay. Undefined when this candidate cannot be driven so.
 */
function standalonePath(abilities: CandidateAbilities, client: ClientSettings, bounds: Bounds): WorldStep[] | undefined {
  if (!abilities.fixtures.emitUnsolicited || bounds.notifications < 1 || bounds.unsolicited < 2) return undefined;
  const built = pathBuilder(abilities, client, bounds);
  const take = (step: WorldStep) => built.take(step);
  if (!take({ type: 'INITIALIZE', transport: 'streamable' }) || !take({ type: 'CALL', unsolicited: true })) return undefined;
  const stream = built.world.client.streams.find((s) => s.kind === 'standalone')?.id;
  if (stream === undefined) return undefined;
  const event = (): boolean => take({ type: 'SEND', stream }) && take({ type: 'RECEIVE', stream }) && take({ type: 'DRAIN', stream });
  if (!event() || !take({ type: 'DROP', stream }) || !take({ type: 'RESUME', stream, via: 'same', cursor: 'own' })) return undefined;
  if (built.world.client.phase !== 'ready') return undefined;
  // What the first call still owes comes in the replay; the second call's notifications come live.
  while (event());
  if (!take({ type: 'CALL', unsolicited: true }) || !event()) return undefined;
  while (event());
  return built.path;
}

/**
 * A path that presents an earlier session's cursor (stale) on a dropped stream that is still owed
 * its response: how a server that accepts a cursor it cannot place loses events, which made-up
 * cursors (probes) never show. Undefined when this candidate cannot be driven so.
 */
export function staleCursorPath(abilities: CandidateAbilities, client: ClientSettings, bounds: Bounds): WorldStep[] | undefined {
  if (!abilities.transports.includes('streamable') || !abilities.fixtures.emit || bounds.notifications < 1) return undefined;
  const built = pathBuilder(abilities, client, bounds);
  const { path } = built;
  const take = (step: WorldStep) => built.take(step);
  const event = (stream: string): boolean => take({ type: 'SEND', stream }) && take({ type: 'RECEIVE', stream }) && take({ type: 'DRAIN', stream });
  // The first session's call is answered in full, then the session deleted (the model starts a new
  // one only then); the second's stream drops after its first event, and the earlier session's cursor is presented.
  for (let session = 0; session < 2; session++) {
    if (session === 1 && !take({ type: 'DELETE' })) return undefined;
    if (!take({ type: 'INITIALIZE', transport: 'streamable' }) || !take({ type: 'CALL', unsolicited: false })) return undefined;
    const stream = built.world.client.requests.at(-1)?.stream;
    if (stream === undefined || !event(stream)) return undefined;
    if (session === 0) while (built.world.client.requests.some((r) => r.status === 'pending') && event(stream));
  }
  const stream = built.world.client.requests.at(-1)!.stream;
  if (!take({ type: 'DROP', stream }) || !take({ type: 'RESUME', stream, via: 'same', cursor: 'stale' })) return undefined;
  return path;
}

/**
 * A path where a call is made while the legacy stream is down, and the stream is then resumed: its
 * answer can only come in the replay, which is how a server that re-runs a call instead of
 * replaying its stored answer shows itself. Undefined when this candidate cannot be driven so.
 */
function missedCallPath(abilities: CandidateAbilities, client: ClientSettings, bounds: Bounds): WorldStep[] | undefined {
  if (!abilities.transports.includes('sse') || !abilities.fixtures.emit || bounds.notifications < 1) return undefined;
  const built = pathBuilder(abilities, client, bounds);
  const { path } = built;
  const take = (step: WorldStep) => built.take(step);
  if (!take({ type: 'INITIALIZE', transport: 'sse' }) || !take({ type: 'CALL', unsolicited: false })) return undefined;
  const stream = built.world.client.streams.find((s) => s.kind === 'legacy')?.id;
  if (stream === undefined) return undefined;
  const steps: WorldStep[] = [
    { type: 'SEND', stream },
    { type: 'RECEIVE', stream },
    { type: 'DRAIN', stream },
    { type: 'DROP', stream },
    { type: 'CALL', unsolicited: false },
    { type: 'RESUME', stream, via: 'same', cursor: 'own' },
  ];
  if (!steps.every(take)) return undefined;
  while (take({ type: 'SEND', stream }) && take({ type: 'RECEIVE', stream }) && take({ type: 'DRAIN', stream }));
  return path;
}

export function planCoverage(abilities: CandidateAbilities, client: ClientSettings): CoveragePlan {
  // A plan depends on these alone, and a process checks many candidates alike (a suite, a catalog).
  const key = JSON.stringify([abilities.transports, abilities.fixtures.emit, abilities.fixtures.emitUnsolicited, client]);
  let plan = plans.get(key);
  if (!plan) {
    if (plans.size >= 16) plans.clear();
    plans.set(key, (plan = newPlan(abilities, client)));
  }
  return plan;
}

/** Plans made in this process, by what they depend on; nobody mutates a plan. */
const plans = new Map<string, CoveragePlan>();

/**
 * The model's shortest path to every state a client that presents only cursors it holds can
 * reach (its own, or an earlier session's; never a made-up one), shortest first, within the
 * coverage bounds. The coverage paths reach a state by a made-up cursor when that is as short,
 * and the judges count no loss or stall after a made-up cursor (a probe, see
 * `HistoryView.isCursorProbe`): these are the shortest witnesses of such a failure the judges can
 * see. A check computes them only when something failed; `witness:N` replays path N.
 */
export function clientCursorPaths(abilities: CandidateAbilities, client: ClientSettings): WorldStep[][] {
  const key = JSON.stringify([abilities.transports, abilities.fixtures.emit, abilities.fixtures.emitUnsolicited, client]);
  let paths = clientPaths.get(key);
  if (!paths) {
    if (clientPaths.size >= 16) clientPaths.clear();
    const all = getShortestPaths(worldMachine, {
      input: { policy: oraclePolicy(client), bounds: coverageBounds(abilities) },
      serializeState: (s) => worldKey(s.context as World),
      events: (s) => drivableSteps(s.context as World, abilities).filter((step) => step.type !== 'RESUME' || step.cursor !== 'garbage'),
    });
    // A stable sort: of one length, in the order the model found them.
    paths = all
      .map((p) => p.steps.slice(1).map((s) => s.event as WorldStep))
      .filter((path) => path.length > 0)
      .sort((a, b) => a.length - b.length);
    clientPaths.set(key, paths);
  }
  return paths;
}

const clientPaths = new Map<string, WorldStep[][]>();

function newPlan(abilities: CandidateAbilities, client: ClientSettings): CoveragePlan {
  const bounds = coverageBounds(abilities);
  const all = getShortestPaths(worldMachine, {
    input: { policy: oraclePolicy(client), bounds },
    serializeState: (s) => worldKey(s.context as World),
    events: (s) => drivableSteps(s.context as World, abilities),
  });
  const steps = all.map((p) => p.steps.slice(1).map((s) => s.event as WorldStep));
  const keyOf = (path: WorldStep[]) => path.map((s) => JSON.stringify(s)).join('>');
  const prefixes = new Set<string>();
  for (const path of steps) for (let i = 0; i < path.length; i++) prefixes.add(keyOf(path.slice(0, i)));
  const leaves = steps.filter((path) => !prefixes.has(keyOf(path))).sort((a, b) => b.length - a.length);
  const covered = new Set<string>();
  const fresh = leaves.map((path) => {
    let n = 0;
    for (let i = 0; i <= path.length; i++) {
      const key = keyOf(path.slice(0, i));
      if (!covered.has(key)) {
        covered.add(key);
        n++;
      }
    }
    return n;
  });
  // The targeted scenarios run first: each is built to expose one kind of bug, so a candidate
  // that has it fails early, and a check's first counterexample comes in its first seconds.
  const paths: WorldStep[][] = [];
  const streamKinds = new Map<number, StreamKind>();
  const wider = new Map<number, Bounds>();
  for (const kind of ['request', 'standalone', 'legacy'] as const) {
    const within = kind === 'standalone' ? standaloneBounds(bounds) : bounds;
    const path = streamKindPath(kind, abilities, client, within);
    if (!path) continue;
    if (within !== bounds) wider.set(paths.length, within);
    streamKinds.set(paths.length, kind);
    paths.push(path);
  }
  const twoCalls = { ...bounds, calls: 2 };
  for (const path of [staleCursorPath(abilities, client, twoCalls), missedCallPath(abilities, client, twoCalls)]) {
    if (!path) continue;
    wider.set(paths.length, twoCalls);
    paths.push(path);
  }
  const targeted = paths.length;
  paths.push(...leaves);
  fresh.unshift(...new Array<number>(targeted).fill(0));
  return { bounds, states: all.length, paths, fresh, streamKinds, wider };
}
