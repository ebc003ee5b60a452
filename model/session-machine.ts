/**
 * The session machine: the specification of one server-side MCP session under both transports.
 * The reference server runs one actor of it per session; the world explored by the model steps
 * it with its pure transition function. Its `reply` after each event is the whole answer to
 * the request (status, the stream the connection now carries, and the frames to write).
 */
import { assign, setup } from 'xstate';
import { mintEventId } from './event-ids.js';
import {
  defaultCapabilityProfile,
  type Reply,
  type ResumeOutcome,
  type SessionContext,
  type SessionEvent,
  type SessionInput,
  type StoredEvent,
  type Stream,
} from './session-types.js';
import type { Transport } from './transport.js';

type Message = unknown;
type Context = SessionContext<Message>;
type Event = SessionEvent<Message>;
type ResumeEvent = Extract<Event, { type: 'RESUME' }>;

const quiet: Reply<Message> = { status: 200, frames: [] };

function refuse(status: number, reason: string): Reply<Message> {
  return { status, reason, frames: [] };
}

/** Whether a request that arrived under `transport` may touch this session. */
function serves(context: Context, transport: Transport): boolean {
  return context.transport === transport || context.policy.bridging;
}

/** The event a cursor names, among all the session sent that the resume handler of `transport` can see. */
function findCursor(context: Context, transport: Transport, lastEventId: string): StoredEvent<Message> | undefined {
  const event = context.log.find((candidate) => candidate.id === lastEventId);
  if (!event) return undefined;
  const { eventIds, crossTransportCursor } = context.policy;
  return eventIds === 'shared' || event.minted === transport || crossTransportCursor === 'translate' ? event : undefined;
}

/** Whether log retention has dropped `event`. */
function trimmed(context: Context, event: StoredEvent<Message>): boolean {
  return context.log.indexOf(event) < context.retainedFrom;
}

/** The event a cursor names, if the store still holds it: a dropped event cannot be placed. */
function placeCursor(context: Context, transport: Transport, lastEventId: string): StoredEvent<Message> | undefined {
  const event = findCursor(context, transport, lastEventId);
  return event && !trimmed(context, event) ? event : undefined;
}

/** The replayable (retained, non-opening) events of `stream` from log index `from` on. */
function replayFrom(context: Context, stream: string, from: number): StoredEvent<Message>[] {
  return context.log.slice(Math.max(from, context.retainedFrom)).filter((e) => e.stream === stream && e.opening === undefined);
}

function findStream(context: Context, id: string): Stream<Message> | undefined {
  return context.streams.find((stream) => stream.id === id);
}

function replaceStream(streams: Stream<Message>[], next: Stream<Message>): Stream<Message>[] {
  return streams.map((stream) => (stream.id === next.id ? next : stream));
}

/** Opens a stream with its opening event already sent on the new connection. */
function openStream(
  context: Context,
  kind: Stream<Message>['kind'],
  transport: Transport,
  queue: Message[],
  requestId?: string,
): Pick<Context, 'streams' | 'log' | 'nextEvent' | 'reply'> {
  const stream: Stream<Message> = {
    id: `${kind[0]}${context.streams.length}`,
    kind,
    transport,
    queue,
    connected: true,
    complete: false,
  };
  if (requestId !== undefined) stream.requestId = requestId;
  const opening: StoredEvent<Message> = {
    id: mintEventId(context.policy.eventIds, context.tag, transport, context.nextEvent),
    stream: stream.id,
    minted: transport,
    opening: kind === 'legacy' ? 'endpoint' : 'priming',
  };
  return {
    streams: [...context.streams, stream],
    log: [...context.log, opening],
    nextEvent: context.nextEvent + 1,
    reply: { status: 200, stream: stream.id, frames: [opening] },
  };
}

function appendUnrelated(context: Context, transport: Transport, unrelated: Message[]): Stream<Message>[] {
  if (unrelated.length === 0) return context.streams;
  const kind = transport === 'sse' ? 'legacy' : 'standalone';
  const target = context.streams.find((stream) => stream.kind === kind);
  // With no stream to carry them, unrelated notifications are not delivered (the spec lets a server skip them).
  if (!target) return context.streams;
  return replaceStream(context.streams, { ...target, queue: [...target.queue, ...unrelated] });
}

function capabilitiesAfterResume(context: Context, event: ResumeEvent): Pick<Context, 'capabilities'> {
  const cross = event.transport !== context.transport;
  if (cross && context.policy.capabilitiesOnMigration === 'defaultProfile') {
    return { capabilities: defaultCapabilityProfile };
  }
  return { capabilities: context.capabilities };
}

function recordResume(context: Context, event: ResumeEvent, outcome: ResumeOutcome, replayed?: StoredEvent<Message>[]): Context['resumes'] {
  const record: Context['resumes'][number] = {
    transport: event.transport,
    lastEventId: event.lastEventId,
    outcome,
    crossTransport: event.transport !== context.transport,
  };
  if (replayed) record.replayed = replayed.map((e) => e.id);
  return [...context.resumes, record];
}

/** A replay of `stream` with `frames`: the stream's connection is back unless its response was sent. */
function replayReply(context: Context, event: ResumeEvent, stream: Stream<Message>, frames: StoredEvent<Message>[]): Partial<Context> {
  const reply: Reply<Message> = { status: 200, stream: stream.id, frames };
  if (stream.complete) reply.end = true;
  return {
    ...capabilitiesAfterResume(context, event),
    streams: replaceStream(context.streams, { ...stream, connected: !stream.complete }),
    resumes: recordResume(context, event, 'replayed', frames),
    reply,
  };
}

/** Ends the session (DELETE or expiry): every connection it had ends with it. */
function endSession(context: Context): Pick<Context, 'streams' | 'reply'> {
  return { streams: context.streams.map((s) => (s.connected ? { ...s, connected: false } : s)), reply: quiet };
}

/**
 * The session machine. Input: the session ID, its tag for event IDs, and the server policy.
 *
 * @example
 * ```ts
 * const actor = createActor(sessionMachine, { input: { sessionId, tag: 's1', policy: reference.server } }).start();
 * actor.send({ type: 'INITIALIZE', transport: 'streamable', protocolVersion: '2025-11-25', capabilities: {} });
 * actor.getSnapshot().context.reply; // { status: 200, frames: [] }
 * ```
 */
const machineSetup = setup({
  types: {
    context: {} as Context,
    events: {} as Event,
    input: {} as SessionInput,
  },
  guards: {
    /** The request came in under a transport this session is not served at. */
    foreignTransport: ({ context, event }) => 'transport' in event && !serves(context, event.transport),
    /** Before initialize: the legacy stream opened the session, and the event comes under the other transport. */
    openedUnderForeignTransport: ({ context, event }) => context.transport !== null && 'transport' in event && !serves(context, event.transport),
    /** A legacy request needs the session's one stream. */
    noLegacyStream: ({ context, event }) => event.type === 'REQUEST' && event.transport === 'sse' && !context.streams.some((s) => s.kind === 'legacy'),
    hasQueued: ({ context, event }) => {
      if (event.type !== 'SEND') return false;
      const stream = findStream(context, event.stream);
      return stream !== undefined && stream.queue.length > 0;
    },
    knownStream: ({ context, event }) => event.type === 'CONNECTION_LOST' && findStream(context, event.stream) !== undefined,
    cursorPlaced: ({ context, event }) => event.type === 'RESUME' && placeCursor(context, event.transport, event.lastEventId) !== undefined,
    /** A broken retention (`boundedPartialReplay`) replays what is left after a dropped cursor. */
    trimmedCursorReplayed: ({ context, event }) => {
      if (event.type !== 'RESUME' || context.policy.logRetention !== 'boundedPartialReplay') return false;
      const cursor = findCursor(context, event.transport, event.lastEventId);
      return cursor !== undefined && trimmed(context, cursor);
    },
    /** Idle: expiry is on and no connection is attached to any of the session's streams. */
    idleExpires: ({ context }) => context.policy.sessionExpiry === 'idleTtl' && !context.streams.some((s) => s.connected),
    trimmable: ({ context }) => context.policy.logRetention !== 'unbounded' && context.retainedFrom < context.log.length,
    unknownCursorAnsweredQuietly: ({ context }) => context.policy.unknownCursor === 'emptyStream',
    standaloneOpen: ({ context }) => context.streams.some((s) => s.kind === 'standalone'),
    noStreamYet: ({ context }) => context.streams.length === 0,
    /** Under legacy SSE, initialize is POSTed to the endpoint the open stream announced. */
    initializeUnderOtherTransport: ({ context, event }) => event.type === 'INITIALIZE' && (event.transport === 'sse') !== (context.transport === 'sse'),
    legacyTransport: ({ event }) => 'transport' in event && event.transport === 'sse',
  },
});

/** The 404 of a request under a transport the session is not served at: there the session is unknown. */
function notFoundForTransport(): Reply<Message> {
  return refuse(404, 'session not found for this transport');
}

/** The transition that refuses a request under a foreign transport with {@link notFoundForTransport}. */
function refusedUnderForeignTransport(guard: 'foreignTransport' | 'openedUnderForeignTransport', description = '404') {
  return { guard, description, meta: { answer: '404' }, actions: machineSetup.assign({ reply: notFoundForTransport }) };
}

/** EXPIRE, alike before and after initialize: an idle session ends as expired, a busy one refuses. */
function expireTransitions() {
  return [
    {
      guard: 'idleExpires' as const,
      target: 'terminated',
      description: 'expired: idle past its TTL',
      meta: { answer: 'expired' },
      actions: machineSetup.assign(({ context }) => ({ ...endSession(context), expired: true })),
    },
    { description: 'not idle', meta: { answer: 'not idle' }, actions: machineSetup.assign({ reply: () => refuse(409, 'the session is not idle') }) },
  ];
}

export const sessionMachine = machineSetup.createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    tag: input.tag,
    policy: input.policy,
    transport: null,
    protocolVersion: null,
    negotiated: null,
    capabilities: null,
    nextEvent: 1,
    log: [],
    retainedFrom: 0,
    expired: false,
    streams: [],
    resumes: [],
    servedUnderForeignCapabilities: false,
    reply: quiet,
  }),
  initial: 'awaitingInitialize',
  states: {
    awaitingInitialize: {
      on: {
        OPEN_LEGACY: [
          {
            guard: 'noStreamYet',
            description: '200: the legacy stream opens with its endpoint event',
            meta: { answer: '200' },
            actions: assign(({ context }) => ({ transport: 'sse' as const, ...openStream(context, 'legacy', 'sse', []) })),
          },
          { description: '409', meta: { answer: '409' }, actions: assign({ reply: () => refuse(409, 'the legacy stream is already open') }) },
        ],
        INITIALIZE: [
          {
            guard: 'initializeUnderOtherTransport',
            description: '400',
            meta: { answer: '400' },
            actions: assign({ reply: () => refuse(400, 'initialize must come under the transport the session was opened with') }),
          },
          {
            target: 'active',
            description: 'capabilities negotiated',
            meta: { answer: 'capabilities negotiated' },
            actions: assign(({ event }) => ({
              transport: event.transport,
              protocolVersion: event.protocolVersion,
              negotiated: event.capabilities,
              capabilities: event.capabilities,
              reply: event.transport === 'sse' ? { status: 202, frames: [] } : quiet,
            })),
          },
        ],
        EXPIRE: expireTransitions(),
        // A legacy session not yet initialized is as unknown at /mcp as an initialized one.
        '*': [
          refusedUnderForeignTransport('openedUnderForeignTransport', '404 session not found for this transport'),
          {
            description: '400 not initialized',
            meta: { answer: '400 not initialized' },
            actions: assign({ reply: () => refuse(400, 'session not initialized') }),
          },
        ],
      },
    },
    active: {
      on: {
        INITIALIZE: {
          description: '400 already initialized',
          meta: { answer: '400 already initialized' },
          actions: assign({ reply: () => refuse(400, 'session already initialized') }),
        },
        OPEN_LEGACY: { description: '409', meta: { answer: '409' }, actions: assign({ reply: () => refuse(409, 'the legacy stream is already open') }) },
        NOTIFY: [
          refusedUnderForeignTransport('foreignTransport'),
          { description: '202', meta: { answer: '202' }, actions: assign({ reply: () => ({ status: 202, frames: [] }) }) },
        ],
        OPEN_STANDALONE: [
          refusedUnderForeignTransport('foreignTransport'),
          {
            guard: 'legacyTransport',
            description: '405',
            meta: { answer: '405' },
            actions: assign({ reply: () => refuse(405, 'no standalone stream under legacy SSE') }),
          },
          {
            guard: 'standaloneOpen',
            description: '409',
            meta: { answer: '409' },
            actions: assign({ reply: () => refuse(409, 'a standalone stream is already open') }),
          },
          {
            description: '200: standalone stream, priming event',
            meta: { answer: '200' },
            actions: assign(({ context }) => openStream(context, 'standalone', 'streamable', [])),
          },
        ],
        REQUEST: [
          refusedUnderForeignTransport('foreignTransport'),
          {
            guard: 'noLegacyStream',
            description: '400',
            meta: { answer: '400' },
            actions: assign({ reply: () => refuse(400, 'no legacy stream for this session') }),
          },
          {
            guard: 'legacyTransport',
            description: '202: queued on the legacy stream',
            meta: { answer: '202' },
            actions: assign(({ context, event }) => {
              const legacy = context.streams.find((s) => s.kind === 'legacy')!;
              const streams = replaceStream(context.streams, {
                ...legacy,
                queue: [...legacy.queue, ...(event.unrelated ?? []), ...event.messages],
              });
              return {
                streams,
                servedUnderForeignCapabilities: context.servedUnderForeignCapabilities || context.capabilities !== context.negotiated,
                reply: { status: 202, frames: [] },
              };
            }),
          },
          {
            description: '200: request stream, priming event',
            meta: { answer: '200' },
            actions: assign(({ context, event }) => {
              const withUnrelated = { ...context, streams: appendUnrelated(context, 'streamable', event.unrelated ?? []) };
              return {
                ...openStream(withUnrelated, 'request', 'streamable', [...event.messages], event.requestId),
                servedUnderForeignCapabilities: context.servedUnderForeignCapabilities || context.capabilities !== context.negotiated,
              };
            }),
          },
        ],
        SEND: [
          {
            guard: 'hasQueued',
            description: 'next event gets an ID, goes to the log (and the connection)',
            meta: { answer: 'next event gets an ID, goes to the log' },
            actions: assign(({ context, event }) => {
              const stream = findStream(context, event.stream)!;
              const [message, ...rest] = stream.queue;
              const sent: StoredEvent<Message> = {
                id: mintEventId(context.policy.eventIds, context.tag, stream.transport, context.nextEvent),
                stream: stream.id,
                minted: stream.transport,
                message,
              };
              // A request stream is complete once its last message, the response, is sent.
              const complete = stream.kind === 'request' && rest.length === 0;
              const reply: Reply<Message> = { status: 200, stream: stream.id, frames: stream.connected ? [sent] : [] };
              if (complete && stream.connected) reply.end = true;
              return {
                // A complete request stream's response has ended: no connection carries it any more.
                streams: replaceStream(context.streams, { ...stream, queue: rest, complete, connected: stream.connected && !complete }),
                log: [...context.log, sent],
                nextEvent: context.nextEvent + 1,
                // Sent either way: on a dropped connection the frame goes to the log only, for a replay.
                reply,
              };
            }),
          },
          { description: '409', meta: { answer: '409' }, actions: assign({ reply: () => refuse(409, 'nothing queued on that stream') }) },
        ],
        CONNECTION_LOST: [
          {
            guard: 'knownStream',
            description: 'the stream stays, its connection goes',
            meta: { answer: 'the stream stays, its connection goes' },
            actions: assign(({ context, event }) => ({
              streams: replaceStream(context.streams, { ...findStream(context, event.stream)!, connected: false }),
              reply: quiet,
            })),
          },
          { description: 'ignored', meta: { answer: 'ignored' }, actions: assign({ reply: () => quiet }) },
        ],
        RESUME: [
          {
            guard: 'foreignTransport',
            description: '404 session not found for this transport',
            meta: { answer: '404 session not found for this transport' },
            actions: assign(({ context, event }) => ({
              resumes: recordResume(context, event, 'rejected'),
              reply: notFoundForTransport(),
            })),
          },
          {
            guard: 'cursorPlaced',
            description: "200: replay of the cursor's stream after (or from) the cursor",
            meta: { answer: '200' },
            actions: assign(({ context, event }) => {
              const cursor = placeCursor(context, event.transport, event.lastEventId)!;
              const stream = findStream(context, cursor.stream)!;
              const at = context.log.indexOf(cursor);
              const from = context.policy.replay === 'inclusive' ? at : at + 1;
              // Only the cursor's stream is replayed (the spec forbids replaying another stream's messages).
              return replayReply(context, event, stream, replayFrom(context, stream.id, from));
            }),
          },
          {
            guard: 'trimmedCursorReplayed',
            description: "200: replay of what is retained of the cursor's stream (a gap)",
            meta: { answer: '200' },
            actions: assign(({ context, event }) => {
              const cursor = findCursor(context, event.transport, event.lastEventId)!;
              const stream = findStream(context, cursor.stream)!;
              return replayReply(context, event, stream, replayFrom(context, stream.id, context.retainedFrom));
            }),
          },
          {
            guard: 'unknownCursorAnsweredQuietly',
            description: '200: a quiet stream',
            meta: { answer: '200' },
            actions: assign(({ context, event }) => ({
              ...capabilitiesAfterResume(context, event),
              resumes: recordResume(context, event, 'quiet'),
              reply: quiet,
            })),
          },
          {
            description: '404 unknown Last-Event-ID',
            meta: { answer: '404 unknown Last-Event-ID' },
            actions: assign(({ context, event }) => ({
              resumes: recordResume(context, event, 'rejected'),
              reply: { status: 404, unknownCursor: event.lastEventId, frames: [] },
            })),
          },
        ],
        DELETE: [
          refusedUnderForeignTransport('foreignTransport'),
          { target: 'terminated', description: '200', meta: { answer: '200' }, actions: assign(({ context }) => endSession(context)) },
        ],
        EXPIRE: expireTransitions(),
        TRIM: [
          {
            guard: 'trimmable',
            description: 'retention drops the oldest retained event',
            meta: { answer: 'retention drops the oldest retained event' },
            actions: assign(({ context }) => ({ retainedFrom: context.retainedFrom + 1, reply: quiet })),
          },
          { description: 'nothing to drop', meta: { answer: 'nothing to drop' }, actions: assign({ reply: () => refuse(409, 'no event to drop') }) },
        ],
      },
    },
    terminated: {
      on: {
        '*': {
          description: '404 session terminated (or expired)',
          meta: { answer: '404 session terminated' },
          actions: assign(({ context }) => ({ reply: refuse(404, context.expired ? 'session expired' : 'session terminated') })),
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
