/**
 * Invariants over world states, one per property that applies to model states (same IDs as the
 * history judges in `properties/`). Each returns null when it holds, or what is wrong.
 */
import type { PropertyId } from './property-ids.js';
import { firstReplayGap } from './replay-gap.js';
import { sessionContext } from './session-step.js';
import type { SessionContext } from './session-types.js';
import type { ClientStream, World, WorldEvent, WorldMessage } from './world-types.js';
import { isStalled } from './world-steps.js';
import { heldSession } from './world.js';

export type Invariant = (world: World) => string | null;

/** An event the server sent on a stream the client holds live, which the application will never get. */
export interface LostEvent {
  stream: string;
  event: WorldEvent;
}

function held(world: World): SessionContext<WorldMessage> | undefined {
  const session = heldSession(world);
  return session ? sessionContext<WorldMessage>(session) : undefined;
}

function describeEvent(event: WorldEvent): string {
  if (!event.message) return `${event.id} (${event.opening})`;
  const { kind, call, seq } = event.message;
  return `${event.id} (${kind === 'result' ? `result of ${call}` : `notification ${seq} of ${call}`})`;
}

/**
 * Events lost for good: on a stream the client believes live, sent by the server, and neither
 * processed, nor received, nor on the connection. No later frame on that connection brings them.
 */
export function lostEvents(world: World): LostEvent[] {
  if (world.client.phase !== 'ready') return [];
  const context = held(world);
  if (!context) return [];
  const lost: LostEvent[] = [];
  for (const stream of world.client.streams) {
    if (!stream.connected) continue;
    for (const event of context.log) {
      if (event.stream !== stream.id || event.opening !== undefined) continue;
      const seen =
        stream.drained.includes(event.id) ||
        stream.inbox.some((f) => f.id === event.id) ||
        stream.wire.some((f) => f.id === event.id);
      if (!seen) lost.push({ stream: stream.id, event });
    }
  }
  return lost;
}

/** The first event a stream's application processed twice or out of order, if any. */
export function misordered(world: World, stream: ClientStream): { id: string; duplicate: boolean } | undefined {
  const context = held(world);
  if (!context) return undefined;
  let previous = -1;
  for (const id of stream.drained) {
    const position = context.log.findIndex((e) => e.id === id);
    if (position <= previous) return { id, duplicate: stream.drained.indexOf(id) !== stream.drained.lastIndexOf(id) };
    previous = position;
  }
  return undefined;
}

function everySession(world: World, judge: (context: SessionContext<WorldMessage>) => string | null): string | null {
  for (const session of world.sessions) {
    const verdict = judge(sessionContext<WorldMessage>(session));
    if (verdict) return verdict;
  }
  return null;
}

/** The invariants, by property ID. */
export const invariants: Partial<Record<PropertyId, Invariant>> = {
  'no-silent-loss': (world) => {
    const lost = lostEvents(world);
    if (lost.length === 0) return null;
    return `the client holds stream ${lost[0]!.stream} live but will never process ${lost.map((l) => describeEvent(l.event)).join(', ')}`;
  },
  'no-cross-transport-resume': (world) =>
    everySession(world, (c) => {
      const r = c.resumes.find((x) => x.crossTransport && x.outcome !== 'rejected');
      return r
        ? `session ${c.sessionId} established under ${c.transport} was resumed under ${r.transport} (${r.outcome === 'quiet' ? '200, quiet stream' : '200, replay'})`
        : null;
    }),
  'unknown-cursor-rejected': (world) =>
    everySession(world, (c) => {
      const r = c.resumes.find((x) => x.outcome === 'quiet');
      return r ? `Last-Event-ID ${r.lastEventId} could not be placed, yet session ${c.sessionId} answered 200 with a quiet stream` : null;
    }),
  'no-cross-stream-replay': (world) => {
    for (const s of world.client.streams) {
      const foreign = [...s.wire, ...s.inbox].find((f) => f.stream !== s.id);
      if (foreign) return `stream ${s.id}'s connection carries ${foreign.id} of stream ${foreign.stream}`;
    }
    return null;
  },
  'no-cross-session-replay': (world) => {
    const context = held(world);
    if (!context) return null;
    for (const s of world.client.streams) {
      const foreign = [...s.wire, ...s.inbox].find((f) => !context.log.some((e) => e.id === f.id));
      if (foreign) return `session ${context.sessionId}'s stream ${s.id} carries ${foreign.id}, which that session never sent`;
    }
    return null;
  },
  'event-ids-unique': (world) =>
    everySession(world, (c) => {
      const seen = new Set<string>();
      for (const e of c.log) {
        if (seen.has(e.id)) return `session ${c.sessionId} sent event ID ${e.id} twice`;
        seen.add(e.id);
      }
      return null;
    }),
  'order-preserved': (world) => {
    for (const s of world.client.streams) {
      const bad = misordered(world, s);
      if (bad) return `stream ${s.id}: the application processed ${bad.id} ${bad.duplicate ? 'twice' : 'out of order'}`;
    }
    return null;
  },
  'capabilities-honoured': (world) =>
    everySession(world, (c) =>
      c.servedUnderForeignCapabilities
        ? `session ${c.sessionId} served a request under capabilities ${JSON.stringify(c.capabilities)}, not the negotiated ${JSON.stringify(c.negotiated)}`
        : null,
    ),
  'at-most-once-effect': (world) => {
    const twice = Object.entries(world.executions).find(([, n]) => n > 1);
    return twice ? `the side effect of call ${twice[0]} ran ${twice[1]} times` : null;
  },
  'no-silent-stall': (world) => {
    const stalled = world.client.requests.find((r) => isStalled(world, r));
    return stalled
      ? `request ${stalled.id} (${stalled.call}) waits on a live stream ${stalled.stream} that will bring nothing more: only a timeout ends it`
      : null;
  },
  'terminated-session-404': (world) => {
    for (const session of world.sessions) {
      if (session.value !== 'terminated') continue;
      const c = sessionContext<WorldMessage>(session);
      const open = c.streams.find((s) => s.connected);
      if (open) return `terminated session ${c.sessionId} still carries stream ${open.id}`;
    }
    return null;
  },
  'replay-has-no-gap': (world) =>
    everySession(world, (c) => {
      const gap = firstReplayGap(c);
      return gap
        ? `session ${c.sessionId} answered Last-Event-ID ${gap.lastEventId} with a replay that skips ${gap.skipped} (it carried ${gap.instead} in its place)`
        : null;
    }),
};

/** Every invariant that fails in `world`, with what is wrong. */
export function violatedInvariants(world: World): Array<{ property: PropertyId; message: string }> {
  const found: Array<{ property: PropertyId; message: string }> = [];
  for (const [property, invariant] of Object.entries(invariants) as Array<[PropertyId, Invariant]>) {
    const message = invariant(world);
    if (message) found.push({ property, message });
  }
  return found;
}
