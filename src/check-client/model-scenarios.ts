/**
 * Client scenarios from the model: the shortest paths (breadth-first exploration of the bounded
 * world) to each client-relevant state, turned into a checker scenario: the path's calls become
 * application calls, the path's connection drop becomes a proxy cut at the same frame (undrained
 * when the model's inbox held frames then). The client's own reactions (resume, timeout) are left
 * to the client under test: that is what is checked.
 *
 * The same exploration is the oracle: under a client's model knobs (cursor, dedup, retry) the
 * model predicts which client properties some fault breaks ({@link modelPrediction}); the tests
 * compare that prediction with what the checker finds on the derived scenarios.
 */
import type { Bounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { lostEvents, misordered } from '../../model/invariants.js';
import { reference, type ClientPolicy, type Policy } from '../../model/policy.js';
import { sessionContext } from '../../model/session-step.js';
import type { World, WorldMessage, WorldStep } from '../../model/world-types.js';
import { heldSession, initialWorld, step as takeStep } from '../../model/world.js';
import type { ClientPropertyId } from '../../properties/client/ids.js';
import { correctKnobs, type ClientKnobs } from './adapters/checking-client.js';
import type { Fault } from './faults.js';
import type { ClientScenario } from './scenarios.js';

/**
 * The bounded world of client scenarios: one streamable session, one call of two notifications,
 * one drop, one resume, one retry. Migrations, foreign cursors, re-initialization and DELETE are
 * what the server's checker explores; here they are the fixed catalog's faults.
 */
const clientBounds: Bounds = {
  calls: 1,
  notifications: 2,
  drops: 1,
  resumes: 1,
  reinitializes: 0,
  retries: 1,
  deletes: 0,
  migrations: 0,
  foreignCursors: 0,
  moves: 0,
  trims: 0,
  unsolicited: 0,
  inFlight: 1,
  undrained: 2,
  unclean: 1,
};

/** The server policies the adversary serves in model scenarios: the reference, and replay from the cursor inclusive. */
const servers: Record<'reference' | 'inclusive', Policy['server']> = {
  reference: reference.server,
  inclusive: { ...reference.server, replay: 'inclusive' },
};
type ServerName = keyof typeof servers;

/** The client knobs that the model has (the others are outside it). */
const modelled = ['cursorAdvance', 'dedup', 'retryOnTimeout'] as const satisfies ReadonlyArray<keyof ClientKnobs & keyof ClientPolicy>;

/** A client's model knobs: the client knobs the model has, the model's defaults for the rest. */
function modelClientPolicy(knobs: Partial<ClientKnobs>): ClientPolicy {
  const settings = { ...correctKnobs, ...knobs };
  return { cursorAdvance: settings.cursorAdvance, dedup: settings.dedup, retryOnTimeout: settings.retryOnTimeout, retryAfterReinitialize: false };
}

/** The knobs of a client that the model has no counterpart for, changed from the correct setting. */
function knobsOutsideModel(knobs: Partial<ClientKnobs>): string[] {
  return Object.entries(knobs)
    .filter(([name, value]) => !(modelled as readonly string[]).includes(name) && value !== correctKnobs[name as keyof ClientKnobs])
    .map(([name, value]) => `${name}=${String(value)}`);
}

function isOpening(world: World, eventId: string): boolean {
  const session = heldSession(world);
  if (!session) return true;
  return sessionContext<WorldMessage>(session).log.find((e) => e.id === eventId)?.opening !== undefined;
}

/**
 * The client properties the model can judge, as predicates over worlds (the model's own
 * invariants where they exist): a state where the property is already broken.
 */
const clientSignatures: Partial<Record<ClientPropertyId, (world: World) => boolean>> = {
  // An event the application will never get, or one it processed twice.
  'client-delivers-exactly-once': (world) => lostEvents(world).length > 0 || world.client.streams.some((s) => misordered(world, s)?.duplicate === true),
  // A cut stream whose cursor names an event the application has not processed: its resume would present it.
  'client-resume-cursor-processed': (world) =>
    world.client.phase === 'ready' && world.client.streams.some((s) => !s.connected && !isOpening(world, s.cursor) && !s.drained.includes(s.cursor)),
  // A tool call's side effect ran twice.
  'client-no-silent-resend': (world) => Object.values(world.executions).some((n) => n > 1),
};

/**
 * States every client meets, whatever its knobs: a live call stream with frames received but not
 * processed, with frames still in flight, and with a notification processed and nothing pending.
 * A scenario cuts the stream there.
 */
const cutStates: Record<string, (world: World) => boolean> = {
  undrained: (world) => world.client.streams.some((s) => s.connected && s.inbox.length > 0 && s.wire.length === 0),
  'in-flight': (world) => world.client.streams.some((s) => s.connected && s.wire.length > 0 && s.inbox.length === 0 && s.drained.length > 0),
  processed: (world) => world.client.streams.some((s) => s.connected && s.wire.length === 0 && s.inbox.length === 0 && s.drained.length > 0),
};

/** A world initialized under streamable HTTP, the start of every model scenario. */
function startWorld(policy: Policy): World {
  return takeStep(initialWorld({ policy, bounds: clientBounds }), { type: 'INITIALIZE', transport: 'streamable' });
}

/**
 * A model path as a checker scenario: its calls (two notifications each), and for its drop (or,
 * with `cutAtEnd`, at its end) a cut of the call's POST stream after the priming event and the
 * frames the client had received, undrained when its inbox held any. Resumes and timeouts are the
 * client's own; a step the adversary cannot stage is an error.
 */
export function scenarioFromPath(name: string, summary: string, server: ServerName, path: readonly WorldStep[], cutAtEnd: boolean): ClientScenario {
  const policy: Policy = { server: servers[server], client: reference.client };
  let world = startWorld(policy);
  const received = new Map<string, number>();
  const faults: Fault[] = [];
  let calls = 0;
  const callOf = (streamId: string): number => {
    const stream = world.client.streams.find((s) => s.id === streamId)!;
    const request = world.client.requests.find((r) => r.id === stream.request);
    return Number(/^c(\d+)$/.exec(request?.call ?? '')?.[1] ?? NaN);
  };
  const cut = (streamId: string): void => {
    const stream = world.client.streams.find((s) => s.id === streamId)!;
    faults.push({
      kind: 'cut',
      on: { method: 'POST', path: '/mcp', rpc: 'tools/call', nth: callOf(streamId) },
      frames: 1 + (received.get(streamId) ?? 0),
      ...(stream.inbox.length > 0 ? { undrained: true } : {}),
    });
  };
  for (const s of path) {
    switch (s.type) {
      case 'CALL':
        calls++;
        break;
      case 'RECEIVE':
        received.set(s.stream, (received.get(s.stream) ?? 0) + 1);
        break;
      case 'DROP':
        if (faults.length > 0) throw new RangeError(`${name}: a second drop cannot be staged`);
        cut(s.stream);
        break;
      case 'SEND':
      case 'DRAIN':
      case 'RESUME':
      case 'TIMEOUT':
        break;
      default:
        throw new RangeError(`${name}: the adversary cannot stage ${s.type}`);
    }
    world = takeStep(world, s);
  }
  if (cutAtEnd) {
    const live = world.client.streams.find((s) => s.connected && s.request !== undefined);
    if (!live) throw new RangeError(`${name}: no live stream to cut at the end`);
    cut(live.id);
  }
  return {
    name,
    summary,
    transport: 'streamable',
    policy,
    policyName: server === 'reference' ? 'reference' : 'reference with replay=inclusive',
    faults,
    calls: Array.from({ length: calls }, (_, i) => ({ name: 'emit', args: { label: `model-${i + 1}`, count: clientBounds.notifications } })),
  };
}

/** What the model predicts for a client: the properties some fault breaks, with the scenario that shows each. */
export interface ModelPrediction {
  /** The client properties the model finds broken under the client's knobs, against either server. */
  predicted: ClientPropertyId[];
  /** Per predicted property, the shortest scenario (the first server that breaks it). */
  scenarios: ClientScenario[];
  /** The client's changed knobs the model has no counterpart for: outside its prediction. */
  outside: string[];
}

/** A name for a client policy's knobs that differ from the correct client's: `cursor=onReceive`, or `correct`. */
function knobsName(policy: ClientPolicy): string {
  const correct = modelClientPolicy({});
  const changed = (Object.keys(policy) as Array<keyof ClientPolicy>).filter((k) => policy[k] !== correct[k]).map((k) => `${k}=${String(policy[k])}`);
  return changed.length > 0 ? changed.join('+') : 'correct';
}

const predictions = new Map<string, ModelPrediction>();

/**
 * Explores the client world under `knobs` against each server policy and reports, per client
 * property the model can judge, whether some reachable state breaks it and the shortest scenario
 * there. Memoized per knob setting (exploration is pure).
 */
export function modelPrediction(knobs: Partial<ClientKnobs>): ModelPrediction {
  const client = modelClientPolicy(knobs);
  const key = knobsName(client);
  const known = predictions.get(key);
  if (known) return { ...known, outside: knobsOutsideModel(knobs) };
  const found = new Map<ClientPropertyId, ClientScenario>();
  for (const server of Object.keys(servers) as ServerName[]) {
    const policy: Policy = { server: servers[server], client };
    const result = explore({
      policy,
      bounds: clientBounds,
      fromWorld: startWorld(policy),
      signatures: clientSignatures as Record<string, (w: World) => boolean>,
    });
    for (const [id, match] of Object.entries(result.matches) as Array<[ClientPropertyId, { path: WorldStep[] }]>) {
      if (found.has(id)) continue;
      const name = `model:${id.replace(/^client-/, '')}@${key}${server === 'inclusive' ? '+inclusive' : ''}`;
      found.set(id, scenarioFromPath(name, `the model's shortest path to a state breaking ${id} for a client with ${key}`, server, match.path, false));
    }
  }
  const prediction: ModelPrediction = { predicted: [...found.keys()].sort(), scenarios: [...found.values()], outside: [] };
  predictions.set(key, prediction);
  return { ...prediction, outside: knobsOutsideModel(knobs) };
}

let cutScenarios: ClientScenario[] | undefined;

/** The shortest path (correct client, reference server) to each cut state, cut there. */
export function modelCutScenarios(): ClientScenario[] {
  if (cutScenarios) return cutScenarios;
  const policy: Policy = { server: servers.reference, client: modelClientPolicy({}) };
  const result = explore({ policy, bounds: clientBounds, fromWorld: startWorld(policy), signatures: cutStates });
  cutScenarios = Object.keys(cutStates)
    .filter((name) => result.matches[name] !== undefined)
    .map((name) =>
      scenarioFromPath(
        `model:cut-${name}`,
        `the model's shortest path to a live call stream with ${name === 'processed' ? 'a notification processed' : `a frame ${name}`}, cut there`,
        'reference',
        result.matches[name]!.path,
        true,
      ),
    );
  return cutScenarios;
}

/**
 * Every model scenario for a run: the cut states, then the scenarios the model's oracle derives
 * for each given client knob setting (the catalog's mutants' and the correct client's), without
 * duplicates (same faults, calls and server).
 */
export function modelScenarios(knobSettings: ReadonlyArray<Partial<ClientKnobs>>): ClientScenario[] {
  const all = [...modelCutScenarios(), ...knobSettings.flatMap((k) => modelPrediction(k).scenarios)];
  const seen = new Set<string>();
  return all.filter((s) => {
    const key = JSON.stringify([s.policyName, s.faults, s.calls.map((c) => c.args.count)]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
