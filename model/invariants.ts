/**
 * Invariants over world states, one per property that applies to model states (same IDs as the
 * history judges in `properties/`). Each returns null when it holds, or what is wrong.
 */
import type { PropertyId } from './property-ids.js';
import { memoization } from './memo.js';
import { firstReplayGap } from './replay-gap.js';
import { sessionContext, type SessionState } from './session-step.js';
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
      const seen = stream.drained.includes(event.id) || stream.inbox.some((f) => f.id === event.id) || stream.wire.some((f) => f.id === event.id);
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

/** Whether the session's log holds the frame's event. */
function sentBy(context: SessionContext<WorldMessage>, frame: WorldEvent): boolean {
  for (const e of context.log) if (e.id === frame.id) return true;
  return false;
}

/** A judge of one session alone: its verdict depends on nothing else in the world. */
type SessionJudge = (session: SessionState) => string | null;

/** The first session (in world order) a per-session judge condemns. */
function everySession(judge: SessionJudge): Invariant {
  return (world) => {
    for (const session of world.sessions) {
      const verdict = judge(session);
      if (verdict) return verdict;
    }
    return null;
  };
}

/** A judge of a session's context. */
function ofContext(judge: (context: SessionContext<WorldMessage>) => string | null): SessionJudge {
  return (session) => judge(sessionContext<WorldMessage>(session));
}

/**
 * The invariants that judge each session alone. Session states are immutable and shared by
 * many worlds, so exploration judges each state once (see `violatedInvariants`).
 */
const sessionJudges: Partial<Record<PropertyId, SessionJudge>> = {
  'no-cross-transport-resume': ofContext((c) => {
    const r = c.resumes.find((x) => x.crossTransport && x.outcome !== 'rejected');
    return r
      ? `session ${c.sessionId} established under ${c.transport} was resumed under ${r.transport} (${r.outcome === 'quiet' ? '200, quiet stream' : '200, replay'})`
      : null;
  }),
  'unknown-cursor-rejected': ofContext((c) => {
    const r = c.resumes.find((x) => x.outcome === 'quiet');
    return r ? `Last-Event-ID ${r.lastEventId} could not be placed, yet session ${c.sessionId} answered 200 with a quiet stream` : null;
  }),
  'event-ids-unique': ofContext((c) => {
    const seen = new Set<string>();
    for (const e of c.log) {
      if (seen.has(e.id)) return `session ${c.sessionId} sent event ID ${e.id} twice`;
      seen.add(e.id);
    }
    return null;
  }),
  'capabilities-honoured': ofContext((c) =>
    c.servedUnderForeignCapabilities
      ? `session ${c.sessionId} served a request under capabilities ${JSON.stringify(c.capabilities)}, not the negotiated ${JSON.stringify(c.negotiated)}`
      : null,
  ),
  'terminated-session-404': (session) => {
    if (session.value !== 'terminated') return null;
    const c = sessionContext<WorldMessage>(session);
    const open = c.streams.find((s) => s.connected);
    return open ? `terminated session ${c.sessionId} still carries stream ${open.id}` : null;
  },
  'replay-has-no-gap': ofContext((c) => {
    const gap = firstReplayGap(c);
    return gap
      ? `session ${c.sessionId} answered Last-Event-ID ${gap.lastEventId} with a replay that skips ${gap.skipped} (it carried ${gap.instead} in its place)`
      : null;
  }),
};

/** The invariants, by property ID. */
export const invariants: Partial<Record<PropertyId, Invariant>> = {
  'no-silent-loss': (world) => {
    const lost = lostEvents(world);
    if (lost.length === 0) return null;
    return `the client holds stream ${lost[0]!.stream} live but will never process ${lost.map((l) => describeEvent(l.event)).join(', ')}`;
  },
  'no-cross-transport-resume': everySession(sessionJudges['no-cross-transport-resume']!),
  'unknown-cursor-rejected': everySession(sessionJudges['unknown-cursor-rejected']!),
  'no-cross-stream-replay': (world) => {
    for (const s of world.client.streams) {
      for (const frames of [s.wire, s.inbox]) {
        for (const f of frames) if (f.stream !== s.id) return `stream ${s.id}'s connection carries ${f.id} of stream ${f.stream}`;
      }
    }
    return null;
  },
  'no-cross-session-replay': (world) => {
    const context = held(world);
    if (!context) return null;
    for (const s of world.client.streams) {
      for (const frames of [s.wire, s.inbox]) {
        for (const f of frames) {
          if (!sentBy(context, f)) return `session ${context.sessionId}'s stream ${s.id} carries ${f.id}, which that session never sent`;
        }
      }
    }
    return null;
  },
  'event-ids-unique': everySession(sessionJudges['event-ids-unique']!),
  'order-preserved': (world) => {
    for (const s of world.client.streams) {
      const bad = misordered(world, s);
      if (bad) return `stream ${s.id}: the application processed ${bad.id} ${bad.duplicate ? 'twice' : 'out of order'}`;
    }
    return null;
  },
  'capabilities-honoured': everySession(sessionJudges['capabilities-honoured']!),
  'at-most-once-effect': (world) => {
    for (const call in world.executions) {
      const runs = world.executions[call]!;
      if (runs > 1) return `the side effect of call ${call} ran ${runs} times`;
    }
    return null;
  },
  'no-silent-stall': (world) => {
    for (const r of world.client.requests) {
      if (isStalled(world, r)) return `request ${r.id} (${r.call}) waits on a live stream ${r.stream} that will bring nothing more: only a timeout ends it`;
    }
    return null;
  },
  'terminated-session-404': everySession(sessionJudges['terminated-session-404']!),
  'replay-has-no-gap': everySession(sessionJudges['replay-has-no-gap']!),
};

const checks = Object.entries(invariants) as Array<[PropertyId, Invariant]>;
const judged = checks.map(([property]) => sessionJudges[property]);
/** The verdicts of a session no per-session judge condemns (most of them): one shared value. */
const clean: ReadonlyArray<string | null> = Object.freeze(checks.map(() => null));
/** Per session state, every session judge's verdict, by index in `checks`. */
const verdicts = new WeakMap<SessionState, ReadonlyArray<string | null>>();

function sessionVerdicts(session: SessionState): ReadonlyArray<string | null> {
  let known = verdicts.get(session);
  if (!known) {
    const judgedNow = judged.map((judge) => (judge ? judge(session) : null));
    verdicts.set(session, (known = judgedNow.some((v) => v !== null) ? judgedNow : clean));
  }
  return known;
}

/**
 * Every invariant that fails in `world`, with what is wrong. A per-session invariant reads each
 * session state once however many worlds share it; the verdicts are the same.
 */
export function violatedInvariants(world: World): Array<{ property: PropertyId; message: string }> {
  const found: Array<{ property: PropertyId; message: string }> = [];
  const perSession = memoization.sessionVerdicts ? world.sessions.map(sessionVerdicts) : undefined;
  for (let i = 0; i < checks.length; i++) {
    const [property, invariant] = checks[i]!;
    let message: string | null = null;
    if (judged[i] && perSession) {
      for (const verdicts of perSession) if ((message = verdicts[i] ?? null)) break;
    } else {
      message = invariant(world);
    }
    if (message) found.push({ property, message });
  }
  return found;
}
