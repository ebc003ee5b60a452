/**
 * Copies of the world's values with some fields replaced. Each lists every field in one object
 * literal, so all copies of a kind share one shape: copying with object spread (`{ ...world, last }`)
 * left fields outside the object and took V8's slow cloning path, several times slower, on
 * every step the explorer takes.
 */
import type { ClientRequest, ClientState, ClientStream, LastAnswer, RequestStatus, Used, World } from './world-types.js';

/** `world` with the given parts replaced (`last: null` clears the last answer). */
export function worldWith(
  world: World,
  changes: { sessions?: World['sessions']; executions?: World['executions']; client?: ClientState; used?: Used; last?: LastAnswer | null },
): World {
  return {
    policy: world.policy,
    bounds: world.bounds,
    sessions: changes.sessions ?? world.sessions,
    executions: changes.executions ?? world.executions,
    client: changes.client ?? world.client,
    used: changes.used ?? world.used,
    last: changes.last !== undefined ? changes.last : world.last,
  };
}

/** `client` with the given fields replaced (`staleCursor: null` clears it). */
export function clientWith(client: ClientState, changes: Partial<ClientState>): ClientState {
  return {
    phase: changes.phase ?? client.phase,
    transport: changes.transport ?? client.transport,
    session: changes.session ?? client.session,
    streams: changes.streams ?? client.streams,
    requests: changes.requests ?? client.requests,
    staleCursor: changes.staleCursor !== undefined ? changes.staleCursor : client.staleCursor,
  };
}

/** `stream` with the given fields replaced. */
export function streamWith(stream: ClientStream, changes: Partial<Omit<ClientStream, 'id' | 'kind' | 'request'>>): ClientStream {
  return {
    id: stream.id,
    kind: stream.kind,
    request: stream.request,
    cursor: changes.cursor ?? stream.cursor,
    connected: changes.connected ?? stream.connected,
    wire: changes.wire ?? stream.wire,
    inbox: changes.inbox ?? stream.inbox,
    drained: changes.drained ?? stream.drained,
  };
}

/** `request` with another status. */
export function requestWith(request: ClientRequest, status: RequestStatus): ClientRequest {
  return {
    id: request.id,
    call: request.call,
    stream: request.stream,
    session: request.session,
    unsolicited: request.unsolicited,
    status,
  };
}

/** `used` with one bound's count one higher. */
export function usedOneMore(used: Used, bound: keyof Used): Used {
  const next: Used = {
    calls: used.calls,
    drops: used.drops,
    resumes: used.resumes,
    reinitializes: used.reinitializes,
    retries: used.retries,
    deletes: used.deletes,
  };
  next[bound]++;
  return next;
}
