/**
 * The world's steps as pure functions: each takes a world and one step of the vocabulary and
 * returns the next world. Server-side effects go through the session machine's own transition
 * function; nothing here decides what a server answers.
 */
import { connect, deliver, drain, drop, receive } from './client.js';
import { createSession, sessionContext, stepSession, type SessionState } from './session-step.js';
import { type Capabilities, replyReason, type SessionEvent } from './session-types.js';
import { otherTransport, type Transport } from './transport.js';
import type { ClientRequest, LastAnswer, ClientState, ClientStream, World, WorldInput, WorldMessage, WorldStep } from './world-types.js';
import { clientWith, requestWith, usedOneMore, worldWith } from './world-values.js';

/** What the world's client declares in `initialize`. */
export const clientCapabilities: Capabilities = Object.freeze({ roots: { listChanged: true } });

/** The protocol version a client speaks under each transport. */
const protocolVersions: Record<Transport, string> = { sse: '2024-11-05', streamable: '2025-11-25' };

/** A cursor no server ever minted. */
export const garbageCursor = 'garbage-0';

/** The world before anything happened: no session, an idle client. */
export function initialWorld({ policy, bounds }: WorldInput): World {
  return {
    policy,
    bounds,
    sessions: [],
    executions: {},
    client: { phase: 'idle', transport: 'streamable', session: -1, streams: [], requests: [], staleCursor: null },
    used: { calls: 0, drops: 0, resumes: 0, reinitializes: 0, retries: 0, deletes: 0 },
    last: null,
  };
}

/** The session the client holds. */
export function heldSession(world: World): SessionState | undefined {
  return world.sessions[world.client.session];
}

// One answer object per status and reason: worlds share them (they are data nobody mutates).
const answers = new Map<number, Map<string | undefined, LastAnswer>>();

function answer(status: number, reason: string | undefined): LastAnswer {
  let byReason = answers.get(status);
  if (byReason === undefined) answers.set(status, (byReason = new Map()));
  let last = byReason.get(reason);
  if (last === undefined) byReason.set(reason, (last = reason === undefined ? { status } : { status, reason }));
  return last;
}

function serve(world: World, event: SessionEvent<WorldMessage>): { world: World; session: SessionState } {
  const index = world.client.session;
  const session = stepSession(world.sessions[index]!, event);
  const sessions = world.sessions.slice();
  sessions[index] = session;
  const { reply } = sessionContext<WorldMessage>(session);
  return { world: worldWith(world, { sessions, last: answer(reply.status, replyReason(reply)) }), session };
}

function updateStream(client: ClientState, id: string, update: (stream: ClientStream) => ClientStream): ClientState {
  return clientWith(client, { streams: client.streams.map((s) => (s.id === id ? update(s) : s)) });
}

/** The requests with every pending one failed; the same array when none is pending (worlds share it, and its key part). */
function failPending(requests: ClientRequest[]): ClientRequest[] {
  return requests.some((r) => r.status === 'pending') ? requests.map((r) => (r.status === 'pending' ? requestWith(r, 'failed') : r)) : requests;
}

function newStream(id: string, kind: ClientStream['kind'], cursor: string, request?: string): ClientStream {
  // Every field, in `streamWith`'s order, so that all client streams share one shape.
  return { id, kind, request, cursor, connected: true, wire: [], inbox: [], drained: [] };
}

function initialize(world: World, transport: Transport): World {
  const index = world.sessions.length;
  let session = createSession({ sessionId: `session-${index + 1}`, tag: `s${index + 1}`, policy: world.policy.server });
  // A legacy client opens the stream first and POSTs initialize to the endpoint it announces.
  if (transport === 'sse') session = stepSession(session, { type: 'OPEN_LEGACY' });
  const opening = sessionContext<WorldMessage>(session).reply;
  session = stepSession(session, {
    type: 'INITIALIZE',
    transport,
    protocolVersion: protocolVersions[transport],
    capabilities: clientCapabilities,
  });
  const streams: ClientStream[] = [];
  let reply = sessionContext<WorldMessage>(session).reply;
  if (transport === 'sse') {
    streams.push(newStream(opening.stream!, 'legacy', opening.frames[0]!.id));
  } else if (world.bounds.unsolicited > 0) {
    // Streamable clients open the standalone GET stream right after initialize, as the SDK client does.
    session = stepSession(session, { type: 'OPEN_STANDALONE', transport });
    reply = sessionContext<WorldMessage>(session).reply;
    streams.push(newStream(reply.stream!, 'standalone', reply.frames[0]!.id));
  }
  const old = world.client.streams[0];
  const fresh = worldWith(world, {
    sessions: [...world.sessions, session],
    client: {
      phase: 'ready',
      transport,
      session: index,
      streams,
      requests: failPending(world.client.requests),
      staleCursor: old ? old.cursor : world.client.staleCursor,
    },
    used: world.client.session >= 0 ? usedOneMore(world.used, 'reinitializes') : world.used,
    last: { status: 200 },
  });
  return retryFailedCall(fresh);
}

/** A client that retries after re-initializing re-issues the last failed call no other request of it answered or awaits. */
function retryFailedCall(world: World): World {
  if (!world.policy.client.retryAfterReinitialize || world.used.retries >= world.bounds.retries) return world;
  const { requests } = world.client;
  const settled = (call: string) => requests.some((r) => r.call === call && (r.status === 'answered' || r.status === 'pending'));
  const failed = [...requests].reverse().find((r) => r.status === 'failed' && !settled(r.call));
  if (!failed) return world;
  const retried = issueCall(world, failed.call, failed.unsolicited);
  return worldWith(retried, { used: usedOneMore(retried.used, 'retries') });
}

/** Sends one tool call: the tool runs (a side effect) when the server accepts the request. */
function issueCall(world: World, call: string, unsolicited: boolean): World {
  const request = `q${world.client.requests.length + 1}`;
  const notifications: WorldMessage[] = [];
  for (let seq = 1; seq <= world.bounds.notifications; seq++) {
    notifications.push({ kind: 'notification', call, request, seq });
  }
  const result: WorldMessage = { kind: 'result', call, request, seq: 0 };
  const { transport } = world.client;
  const served = serve(world, {
    type: 'REQUEST',
    transport,
    requestId: request,
    messages: unsolicited ? [result] : [...notifications, result],
    unrelated: unsolicited ? notifications : [],
  });
  const { reply } = sessionContext<WorldMessage>(served.session);
  if (reply.status >= 400) {
    const failed: ClientRequest = { id: request, call, stream: '', session: world.client.session, unsolicited, status: 'failed' };
    return worldWith(served.world, {
      client: clientWith(world.client, { phase: 'mustReinitialize', requests: failPending([...world.client.requests, failed]) }),
    });
  }
  const legacy = world.client.streams.find((s) => s.kind === 'legacy');
  const stream = transport === 'streamable' ? reply.stream! : legacy!.id;
  const streams = transport === 'streamable' ? [...world.client.streams, newStream(stream, 'request', reply.frames[0]!.id, request)] : world.client.streams;
  return worldWith(served.world, {
    executions: { ...world.executions, [call]: (world.executions[call] ?? 0) + 1 },
    client: clientWith(world.client, {
      streams,
      requests: [...world.client.requests, { id: request, call, stream, session: world.client.session, unsolicited, status: 'pending' }],
    }),
  });
}

function resume(world: World, step: Extract<WorldStep, { type: 'RESUME' }>): World {
  const stream = world.client.streams.find((s) => s.id === step.stream)!;
  const transport = step.via === 'same' ? world.client.transport : otherTransport(world.client.transport);
  const lastEventId = step.cursor === 'own' ? stream.cursor : step.cursor === 'garbage' ? garbageCursor : world.client.staleCursor!;
  const served = serve(world, { type: 'RESUME', transport, lastEventId });
  const { reply } = sessionContext<WorldMessage>(served.session);
  const used = usedOneMore(world.used, 'resumes');
  if (reply.status >= 400) {
    // 404: the client must start a new session; what it waited for there is reported failed.
    return worldWith(served.world, {
      used,
      client: clientWith(world.client, { phase: 'mustReinitialize', requests: failPending(world.client.requests) }),
    });
  }
  const client = clientWith(
    updateStream(world.client, stream.id, (s) => connect(s, reply.frames)),
    { transport },
  );
  return worldWith(served.world, { used, client });
}

function timeout(world: World, requestId: string): World {
  const request = world.client.requests.find((r) => r.id === requestId)!;
  const timedOut = worldWith(world, {
    client: clientWith(world.client, {
      requests: world.client.requests.map((r) => (r.id === requestId ? requestWith(r, 'timedOut') : r)),
    }),
    last: null,
  });
  if (!world.policy.client.retryOnTimeout || world.used.retries >= world.bounds.retries) return timedOut;
  const retried = issueCall(timedOut, request.call, request.unsolicited);
  return worldWith(retried, { used: usedOneMore(retried.used, 'retries') });
}

/** The next world after one step. The step must be enabled (see `canStep`). */
export function step(world: World, event: WorldStep): World {
  const policy = world.policy.client;
  switch (event.type) {
    case 'INITIALIZE':
      return initialize(world, event.transport);
    case 'CALL': {
      // A migrating client speaks streamable from now on, whatever the server answers.
      const from = event.migrate ? worldWith(world, { client: clientWith(world.client, { transport: 'streamable' }) }) : world;
      const next = issueCall(from, `c${world.used.calls + 1}`, event.unsolicited);
      return worldWith(next, { used: usedOneMore(next.used, 'calls') });
    }
    case 'SEND': {
      const served = serve(world, { type: 'SEND', stream: event.stream });
      const { frames } = sessionContext<WorldMessage>(served.session).reply;
      return worldWith(served.world, { client: updateStream(world.client, event.stream, (s) => deliver(s, frames)) });
    }
    case 'RECEIVE':
      return worldWith(world, { client: updateStream(world.client, event.stream, (s) => receive(s, policy)), last: null });
    case 'DRAIN': {
      const stream = world.client.streams.find((s) => s.id === event.stream)!;
      const drained = drain(stream, policy);
      const message = drained.processed ? drained.frame?.message : undefined;
      let client = updateStream(world.client, event.stream, () => drained.stream);
      if (message?.kind === 'result') {
        client = clientWith(client, {
          requests: client.requests.map((r) => (r.id === message.request && r.status === 'pending' ? requestWith(r, 'answered') : r)),
        });
      }
      return worldWith(world, { client, last: null });
    }
    case 'DROP': {
      const served = serve(world, { type: 'CONNECTION_LOST', stream: event.stream });
      return worldWith(served.world, { client: updateStream(world.client, event.stream, drop), used: usedOneMore(world.used, 'drops'), last: null });
    }
    case 'RESUME':
      return resume(world, event);
    case 'TIMEOUT':
      return timeout(world, event.request);
    case 'EXPIRE':
    case 'TRIM':
      // The server's own doing: nobody asked, nobody is answered, the client learns of it later.
      return worldWith(serve(world, { type: event.type }).world, { last: null });
    case 'DELETE': {
      const served = serve(world, { type: 'DELETE', transport: world.client.transport });
      const old = world.client.streams[0];
      return worldWith(served.world, {
        client: clientWith(world.client, {
          phase: 'idle',
          streams: [],
          requests: failPending(world.client.requests),
          staleCursor: old ? old.cursor : world.client.staleCursor,
        }),
        used: usedOneMore(world.used, 'deletes'),
      });
    }
  }
}
