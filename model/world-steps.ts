/**
 * Which steps the world can take: the guards that keep it bounded and make every step mean
 * something. The explorer enumerates `enabledSteps`; replays and fast-check ask `canStep`.
 */
import { isCleanDrop } from './client.js';
import { sessionContext } from './session-step.js';
import type { ClientRequest, ClientStream, ResumeCursor, ResumeVia, World, WorldMessage, WorldStep } from './world-types.js';
import { heldSession } from './world.js';

/** A stream is worth dropping or resuming while a pending request's response or notifications come on it. */
function isLive(world: World, stream: ClientStream): boolean {
  return world.client.requests.some(
    (r) => r.status === 'pending' && r.session === world.client.session && (r.stream === stream.id || (stream.kind === 'standalone' && r.unsolicited)),
  );
}

/**
 * A request is stalled when the client believes the connection its response comes on is live,
 * nothing is on that connection or waiting to be processed, and the server has nothing more to
 * put on it: only a timeout can end the wait.
 */
export function isStalled(world: World, request: ClientRequest): boolean {
  if (request.status !== 'pending' || world.client.phase !== 'ready' || request.session !== world.client.session) {
    return false;
  }
  const stream = world.client.streams.find((s) => s.id === request.stream);
  if (!stream?.connected || stream.wire.length > 0 || stream.inbox.length > 0) return false;
  const session = heldSession(world);
  if (!session) return false;
  const serverStream = sessionContext<WorldMessage>(session).streams.find((s) => s.id === stream.id);
  return !serverStream?.connected || serverStream.queue.length === 0;
}

/** Whether `step` may be taken in `world`. */
export function canStep(world: World, step: WorldStep): boolean {
  const { client, used, bounds } = world;
  const ready = client.phase === 'ready';
  const stream = 'stream' in step ? client.streams.find((s) => s.id === step.stream) : undefined;
  switch (step.type) {
    case 'INITIALIZE':
      return !ready && (client.session === -1 || used.reinitializes < bounds.reinitializes);
    case 'CALL': {
      if (!ready || used.calls >= bounds.calls) return false;
      if (step.migrate) return !step.unsolicited && bounds.moves > 0 && client.transport === 'sse';
      if (step.unsolicited) {
        return (
          client.requests.filter((r) => r.unsolicited).length < bounds.unsolicited &&
          client.transport === 'streamable' &&
          client.streams.some((s) => s.kind === 'standalone')
        );
      }
      // Legacy POSTs answer on the session's one stream; a session established under streamable has none.
      return client.transport === 'streamable' || client.streams.some((s) => s.kind === 'legacy');
    }
    case 'SEND': {
      if (!ready) return false;
      const session = heldSession(world);
      const queued = !!session && sessionContext<WorldMessage>(session).streams.some((s) => s.id === step.stream && s.queue.length > 0);
      // A full socket buffer holds the server back (only on a connection the client holds).
      return queued && !(stream?.connected && stream.wire.length >= bounds.inFlight);
    }
    case 'RECEIVE':
      return ready && !!stream && stream.connected && stream.wire.length > 0 && stream.inbox.length < bounds.undrained;
    case 'DRAIN':
      return ready && !!stream && stream.inbox.length > 0;
    case 'DROP':
      return ready && !!stream && stream.connected && used.drops < bounds.drops && isLive(world, stream) && (bounds.unclean > 0 || isCleanDrop(stream));
    case 'RESUME':
      return (
        ready &&
        !!stream &&
        !stream.connected &&
        used.resumes < bounds.resumes &&
        isLive(world, stream) &&
        (step.via === 'same' || bounds.migrations > 0) &&
        (step.cursor === 'own' || (bounds.foreignCursors > 0 && (step.cursor === 'garbage' || client.staleCursor !== null)))
      );
    case 'TIMEOUT': {
      const request = client.requests.find((r) => r.id === step.request);
      return !!request && isStalled(world, request);
    }
    case 'EXPIRE':
    case 'TRIM': {
      // Production's server-side steps, offered only when their knob is on (so default state counts stay).
      const session = heldSession(world);
      if (session?.value !== 'active') return false;
      const c = sessionContext<WorldMessage>(session);
      if (step.type === 'EXPIRE') return c.policy.sessionExpiry === 'idleTtl' && !c.streams.some((s) => s.connected);
      // Bounded like every other step: a log that could drop any number of events would explode the state space.
      return c.policy.logRetention !== 'unbounded' && c.retainedFrom < Math.min(c.log.length, world.bounds.trims);
    }
    case 'DELETE':
      // A client leaves a session once it waits for nothing there.
      return ready && used.deletes < bounds.deletes && !client.requests.some((r) => r.status === 'pending');
  }
}

const vias: ResumeVia[] = ['same', 'other'];
const cursors: ResumeCursor[] = ['own', 'garbage', 'stale'];

// Step values are data and never change: one frozen object per distinct step, so listing a
// world's candidates allocates nothing and a step can be told by identity.
const fixedBefore: readonly WorldStep[] = [
  { type: 'INITIALIZE', transport: 'sse' },
  { type: 'INITIALIZE', transport: 'streamable' },
  { type: 'CALL', unsolicited: false },
  { type: 'CALL', unsolicited: true },
  { type: 'CALL', unsolicited: false, migrate: true },
].map((s) => Object.freeze(s as WorldStep));
const fixedAfter: readonly WorldStep[] = [{ type: 'DELETE' }, { type: 'EXPIRE' }, { type: 'TRIM' }].map((s) => Object.freeze(s as WorldStep));
const sendSteps = new Map<string, WorldStep>();
const streamSteps = new Map<string, readonly WorldStep[]>();
const timeoutSteps = new Map<string, WorldStep>();

function sendStep(stream: string): WorldStep {
  let step = sendSteps.get(stream);
  if (!step) sendSteps.set(stream, (step = Object.freeze({ type: 'SEND', stream })));
  return step;
}

function stepsOnStream(stream: string): readonly WorldStep[] {
  let steps = streamSteps.get(stream);
  if (!steps) {
    const list: WorldStep[] = [
      { type: 'RECEIVE', stream },
      { type: 'DRAIN', stream },
      { type: 'DROP', stream },
    ];
    for (const via of vias) for (const cursor of cursors) list.push({ type: 'RESUME', stream, via, cursor });
    streamSteps.set(stream, (steps = list.map((s) => Object.freeze(s))));
  }
  return steps;
}

function timeoutStep(request: string): WorldStep {
  let step = timeoutSteps.get(request);
  if (!step) timeoutSteps.set(request, (step = Object.freeze({ type: 'TIMEOUT', request })));
  return step;
}

/** Every step a world of this shape could be offered, in the fixed order of `enabledSteps`. */
export function candidateSteps(world: World): WorldStep[] {
  const candidates: WorldStep[] = [...fixedBefore];
  const session = heldSession(world);
  if (session && world.client.phase === 'ready') {
    for (const s of sessionContext<WorldMessage>(session).streams) candidates.push(sendStep(s.id));
  }
  for (const s of world.client.streams) candidates.push(...stepsOnStream(s.id));
  for (const r of world.client.requests) candidates.push(timeoutStep(r.id));
  candidates.push(...fixedAfter);
  return candidates;
}

/** The first item with that ID (as `canStep` finds a stream or request by its ID). */
function firstWithId<T extends { id: string }>(items: readonly T[], id: string): T | undefined {
  for (const item of items) if (item.id === id) return item;
  return undefined;
}

/**
 * Every step `world` can take, in a fixed order (so shortest paths are deterministic): exactly
 * `candidateSteps(world).filter((s) => canStep(world, s))` (a test holds it to that), computed
 * with the world's shared facts read once instead of once per candidate.
 */
export function enabledSteps(world: World): WorldStep[] {
  const { client, used, bounds } = world;
  const enabled: WorldStep[] = [];
  const ready = client.phase === 'ready';
  if (!ready) {
    if (client.session === -1 || used.reinitializes < bounds.reinitializes) enabled.push(fixedBefore[0]!, fixedBefore[1]!);
  } else if (used.calls < bounds.calls) {
    const streamable = client.transport === 'streamable';
    if (streamable || client.streams.some((s) => s.kind === 'legacy')) enabled.push(fixedBefore[2]!);
    if (streamable && client.streams.some((s) => s.kind === 'standalone')) {
      let unsolicited = 0;
      for (const r of client.requests) if (r.unsolicited) unsolicited++;
      if (unsolicited < bounds.unsolicited) enabled.push(fixedBefore[3]!);
    }
    if (bounds.moves > 0 && client.transport === 'sse') enabled.push(fixedBefore[4]!);
  }
  const session = heldSession(world);
  if (ready && session) {
    for (const s of sessionContext<WorldMessage>(session).streams) {
      if (s.queue.length === 0) continue;
      // As `canStep` reads it: the first client stream of that ID.
      const stream = firstWithId(client.streams, s.id);
      if (!(stream?.connected && stream.wire.length >= bounds.inFlight)) enabled.push(sendStep(s.id));
    }
  }
  if (ready) {
    for (const candidate of client.streams) {
      const stream = firstWithId(client.streams, candidate.id)!;
      const steps = stepsOnStream(stream.id);
      if (stream.connected && stream.wire.length > 0 && stream.inbox.length < bounds.undrained) enabled.push(steps[0]!);
      if (stream.inbox.length > 0) enabled.push(steps[1]!);
      const droppable = stream.connected && used.drops < bounds.drops;
      const resumable = !stream.connected && used.resumes < bounds.resumes;
      if (!droppable && !resumable) continue;
      if (!isLive(world, stream)) continue;
      if (droppable && (bounds.unclean > 0 || isCleanDrop(stream))) enabled.push(steps[2]!);
      if (resumable) {
        const foreign = bounds.foreignCursors > 0;
        for (let via = 0; via < 2; via++) {
          if (via === 1 && !(bounds.migrations > 0)) continue;
          enabled.push(steps[3 + via * 3]!);
          if (foreign) enabled.push(steps[4 + via * 3]!);
          if (foreign && client.staleCursor !== null) enabled.push(steps[5 + via * 3]!);
        }
      }
    }
  }
  let pending = false;
  for (const r of client.requests) {
    if (r.status === 'pending') pending = true;
    const request = firstWithId(client.requests, r.id)!;
    if (isStalled(world, request)) enabled.push(timeoutStep(r.id));
  }
  if (ready && used.deletes < bounds.deletes && !pending) enabled.push(fixedAfter[0]!);
  if (session && session.value === 'active') {
    const c = sessionContext<WorldMessage>(session);
    if (c.policy.sessionExpiry === 'idleTtl' && !c.streams.some((s) => s.connected)) enabled.push(fixedAfter[1]!);
    if (c.policy.logRetention !== 'unbounded' && c.retainedFrom < Math.min(c.log.length, bounds.trims)) enabled.push(fixedAfter[2]!);
  }
  return enabled;
}
