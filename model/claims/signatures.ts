/**
 * Predicates over worlds that recognise what the seeds describe: the incident signatures, and
 * the outcomes the decision tables classify.
 */
import { lostEvents, misordered } from '../invariants.js';
import { sessionContext } from '../session-step.js';
import type { ResumeRecord, SessionContext } from '../session-types.js';
import type { World, WorldMessage } from '../world-types.js';
import { heldSession } from '../world.js';
import { isStalled } from '../world-steps.js';

function held(world: World): SessionContext<WorldMessage> | undefined {
  const session = heldSession(world);
  return session ? sessionContext<WorldMessage>(session) : undefined;
}

function accepted(context: SessionContext<WorldMessage>): ResumeRecord[] {
  return context.resumes.filter((r) => r.outcome !== 'rejected');
}

/** The client will never process some event of a stream it holds live. */
export function losesAnEvent(world: World): boolean {
  return lostEvents(world).length > 0;
}

/** More than one event lost at once. */
export function losesSeveralEvents(world: World): boolean {
  return lostEvents(world).length > 1;
}

/** An event is lost while every accepted resume of the session was under the transport that established it. */
export function losesWithoutMigration(world: World): boolean {
  const context = held(world);
  return !!context && losesAnEvent(world) && accepted(context).every((r) => !r.crossTransport);
}

/** An event is lost in a session established under streamable HTTP that never saw a migration. */
export function losesOnStreamableOnly(world: World): boolean {
  const context = held(world);
  return !!context && context.transport === 'streamable' && losesWithoutMigration(world);
}

/** An event is lost on a stream resumed by a migration the server accepted. */
export function losesOnMigration(world: World): boolean {
  const context = held(world);
  return !!context && losesAnEvent(world) && accepted(context).some((r) => r.crossTransport);
}

/**
 * Seed 000's signature: exactly one event missing, a tool-call result, lost on the session's
 * first resume, an sse-to-streamable migration whose cursor is that very event's ID.
 */
export function seed000Signature(world: World): boolean {
  const context = held(world);
  if (!context) return false;
  const lost = lostEvents(world);
  if (lost.length !== 1 || lost[0]!.event.message?.kind !== 'result') return false;
  const [first, ...later] = context.resumes;
  return (
    !!first &&
    later.length === 0 &&
    first.outcome === 'replayed' &&
    context.transport === 'sse' &&
    first.transport === 'streamable' &&
    first.lastEventId === lost[0]!.event.id
  );
}

/** The application processed an event twice. */
export function deliversTwice(world: World): boolean {
  return world.client.streams.some((s) => misordered(world, s)?.duplicate === true);
}

/** A session established under one transport was resumed (2xx) under the other. */
export function acceptsMigration(world: World): boolean {
  return world.sessions.some((s) => sessionContext<WorldMessage>(s).resumes.some((r) => r.crossTransport && r.outcome !== 'rejected'));
}

/** A resume was answered 200 with a quiet stream. */
export function answersQuietly(world: World): boolean {
  return world.sessions.some((s) => sessionContext<WorldMessage>(s).resumes.some((r) => r.outcome === 'quiet'));
}

/** A request was served under capabilities the client did not negotiate in that session. */
export function servesForeignCapabilities(world: World): boolean {
  return world.sessions.some((s) => sessionContext<WorldMessage>(s).servedUnderForeignCapabilities);
}

/**
 * Seed 003's signature: a cross-transport resume answered 200 with a quiet stream, and
 * afterwards a request served under capabilities the client never negotiated.
 */
export function seed003Signature(world: World): boolean {
  const context = held(world);
  return !!context && context.resumes.some((r) => r.crossTransport && r.outcome === 'quiet') && context.servedUnderForeignCapabilities;
}

/**
 * A migration was refused with 404, the client re-initialized over the transport it had tried
 * to migrate to, and a call in that new session was answered.
 */
export function recoversFromRefusedMigration(world: World): boolean {
  const refused = new Set<string>();
  for (const s of world.sessions) {
    for (const r of sessionContext<WorldMessage>(s).resumes) if (r.crossTransport && r.outcome === 'rejected') refused.add(r.transport);
  }
  const context = held(world);
  return (
    !!context &&
    world.client.session > 0 &&
    context.transport !== null &&
    refused.has(context.transport) &&
    world.client.requests.some((r) => r.status === 'answered' && r.session === world.client.session)
  );
}

/** A request waits on a live stream that will bring nothing more. */
export function stalls(world: World): boolean {
  return world.client.requests.some((r) => isStalled(world, r));
}

/** A tool's side effect ran more than once. */
function duplicatesAnEffect(world: World): boolean {
  return Object.values(world.executions).some((n) => n > 1);
}

/** The consequences a client or user can suffer, whatever rule a server follows (003-rule is judged by these alone). */
export const consequences = {
  loss: losesAnEvent,
  stall: stalls,
  'duplicate effect': duplicatesAnEffect,
  'foreign capabilities': servesForeignCapabilities,
} as const satisfies Record<string, (world: World) => boolean>;

/** A call that failed in an earlier session ran again, in the new one, after a re-initialization. */
export function reRunsAFailedCall(world: World): boolean {
  return world.client.requests.some(
    (failed) =>
      failed.status === 'failed' &&
      (world.executions[failed.call] ?? 0) > 1 &&
      world.client.requests.some((r) => r.call === failed.call && r.session > failed.session),
  );
}

/** A migration was refused with 404 while the tool of a call it failed had already run: the loss is reported, not silent. */
export function failsVisiblyAfterRefusedMigration(world: World): boolean {
  const refused = world.sessions.some((s) => sessionContext<WorldMessage>(s).resumes.some((r) => r.crossTransport && r.outcome === 'rejected'));
  return refused && world.client.requests.some((r) => r.status === 'failed' && (world.executions[r.call] ?? 0) > 0);
}
