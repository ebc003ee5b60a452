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
    (r) =>
      r.status === 'pending' &&
      r.session === world.client.session &&
      (r.stream === stream.id || (stream.kind === 'standalone' && r.unsolicited)),
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
  if (!stream || !stream.connected || stream.wire.length > 0 || stream.inbox.length > 0) return false;
  const session = heldSession(world);
  if (!session) return false;
  const serverStream = sessionContext<WorldMessage>(session).streams.find((s) => s.id === stream.id);
  return !serverStream || !serverStream.connected || serverStream.queue.length === 0;
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
      return queued && !(stream && stream.connected && stream.wire.length >= bounds.inFlight);
    }
    case 'RECEIVE':
      return ready && !!stream && stream.connected && stream.wire.length > 0 && stream.inbox.length < bounds.undrained;
    case 'DRAIN':
      return ready && !!stream && stream.inbox.length > 0;
    case 'DROP':
      return (
        ready &&
        !!stream &&
        stream.connected &&
        used.drops < bounds.drops &&
        isLive(world, stream) &&
        (bounds.unclean > 0 || isCleanDrop(stream))
      );
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
      if (!session || session.value !== 'active') return false;
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

/** Every step `world` can take, in a fixed order (so shortest paths are deterministic). */
export function enabledSteps(world: World): WorldStep[] {
  const candidates: WorldStep[] = [
    { type: 'INITIALIZE', transport: 'sse' },
    { type: 'INITIALIZE', transport: 'streamable' },
    { type: 'CALL', unsolicited: false },
    { type: 'CALL', unsolicited: true },
    { type: 'CALL', unsolicited: false, migrate: true },
  ];
  const session = heldSession(world);
  if (session && world.client.phase === 'ready') {
    for (const s of sessionContext<WorldMessage>(session).streams) candidates.push({ type: 'SEND', stream: s.id });
  }
  for (const s of world.client.streams) {
    candidates.push({ type: 'RECEIVE', stream: s.id }, { type: 'DRAIN', stream: s.id }, { type: 'DROP', stream: s.id });
    for (const via of vias) for (const cursor of cursors) candidates.push({ type: 'RESUME', stream: s.id, via, cursor });
  }
  for (const r of world.client.requests) candidates.push({ type: 'TIMEOUT', request: r.id });
  candidates.push({ type: 'DELETE' }, { type: 'EXPIRE' }, { type: 'TRIM' });
  return candidates.filter((step) => canStep(world, step));
}
