/**
 * The client judges: each reads one scenario's {@link ClientHistory} and says whether its property
 * held, failed (with the entry that shows it), or was not exercised by that scenario.
 */
import type { AppCall, AppEntry, ClientHistory, WireEntry, WireFrame, WireMessage, WireRequest } from './history.js';
import type { ClientPropertyId } from './ids.js';
import { toolJson } from '../messages.js';

/** One judge's verdict on one history. `at` is the clock value of the entry that shows a failure. */
export type ClientVerdict = { status: 'pass' } | { status: 'n/a' } | { status: 'fail'; reason: string; at: number };

type Judge = (history: ClientHistory) => ClientVerdict;

const pass: ClientVerdict = { status: 'pass' };
const notApplicable: ClientVerdict = { status: 'n/a' };

/** The `{label, seq}` a fixture notification carries, if it is one. */
function fixtureData(params: unknown): { label: string; seq: number } | undefined {
  const data = (params as { data?: unknown } | undefined)?.data as { label?: unknown; seq?: unknown } | undefined;
  return typeof data?.label === 'string' && typeof data.seq === 'number' ? { label: data.label, seq: data.seq } : undefined;
}

/** What a fixture `emit` result says (`{label, executions}`, the JSON of its text block), if `value` is one. */
function fixtureResult(value: unknown): { label: string; executions: number } | undefined {
  const data = toolJson({ result: value });
  return typeof data?.label === 'string' && typeof data.executions === 'number' ? { label: data.label, executions: data.executions } : undefined;
}

/**
 * The results the server sent for the calls labelled `label` (in a response body or an SSE frame):
 * one per execution, so a re-sent call's results are told apart by their execution count.
 */
function sentResults(wire: WireEntry[], label: string): Array<{ label: string; executions: number }> {
  const messages = wire.flatMap((e) => (e.kind === 'frame' ? (e.message ? [e.message] : []) : e.kind === 'response' ? e.messages : []));
  const found: Array<{ label: string; executions: number }> = [];
  for (const m of messages) {
    if (m.method !== undefined || m.result === undefined) continue;
    const r = fixtureResult(m.result);
    if (r?.label === label && !found.some((f) => f.executions === r.executions)) found.push(r);
  }
  return found;
}

function emitArgs(call: AppCall): { label: string; count: number } | undefined {
  if (call.name !== 'emit' && call.name !== 'emit_unsolicited') return undefined;
  const { label, count } = call.args;
  return typeof label === 'string' && typeof count === 'number' ? { label, count } : undefined;
}

function calls(app: AppEntry[]): AppCall[] {
  return app.filter((e): e is AppCall => e.kind === 'call');
}

function settledOf(app: AppEntry[], call: number) {
  return app.find((e) => e.kind === 'settled' && e.call === call) as Extract<AppEntry, { kind: 'settled' }> | undefined;
}

function clientRequests(wire: WireEntry[]): WireRequest[] {
  return wire.filter((e): e is WireRequest => e.kind === 'request' && e.origin === 'client');
}

/**
 * What a duplicate's failure adds when the scenario's server replays inclusively: the copy is the
 * server's departure, made on purpose, and what is asked of the client is this project's rule.
 */
const inclusiveReplayNote =
  "; in this scenario the server replays from the cursor inclusive (the cursor's event again: a departure from the spec's \"after the last event ID\" the scenario makes on purpose, the model's inclusive replay). The spec puts no duty on the client to drop the copy; this project's rule (POLICY) is that the application gets each event once, and a client can keep it: event IDs are unique within a session, so a copy of one it delivered is recognizable";

const deliversExactlyOnce: Judge = ({ app, wire, serverReplay }) => {
  let judged = false;
  for (const call of calls(app)) {
    const args = emitArgs(call);
    if (!args) continue;
    judged = true;
    const deliveries = new Map<number, number[]>();
    for (const entry of app) {
      if (entry.kind !== 'notification') continue;
      const data = fixtureData(entry.params);
      if (data?.label !== args.label) continue;
      deliveries.set(data.seq, [...(deliveries.get(data.seq) ?? []), entry.at]);
    }
    for (const [seq, ats] of deliveries) {
      if (ats.length > 1) {
        const why = serverReplay === 'inclusive' ? inclusiveReplayNote : '';
        return {
          status: 'fail',
          reason: `call ${call.call} (${call.name} "${args.label}"): notification seq ${seq} reached the application ${ats.length} times${why}`,
          at: ats[1]!,
        };
      }
    }
    const settled = settledOf(app, call.call);
    if (settled?.outcome !== 'resolved') continue;
    const got = fixtureResult(settled.value);
    const sent = sentResults(wire, args.label);
    if (got === undefined || !sent.some((r) => r.label === got.label && r.executions === got.executions)) {
      const said = sent.length > 0 ? `the server sent ${sent.map((r) => JSON.stringify(r)).join(' and ')} for it` : 'the server sent no result for it';
      return {
        status: 'fail',
        reason: `call ${call.call} (${call.name} "${args.label}") resolved with ${JSON.stringify(settled.value) ?? 'undefined'}, which is no result the server sent: ${said}`,
        at: settled.at,
      };
    }
    const missing = Array.from({ length: args.count }, (_, i) => i + 1).filter((seq) => !deliveries.has(seq));
    if (missing.length > 0) {
      return {
        status: 'fail',
        reason: `call ${call.call} (${call.name} "${args.label}") resolved, but notification seq ${missing.join(', ')} of ${args.count} never reached the application`,
        at: settled.at,
      };
    }
  }
  return judged ? pass : notApplicable;
};

/**
 * Whether the application had processed `message` (a notification, or a call's response), received
 * at clock `after`, before clock `before`.
 */
function processed(history: ClientHistory, message: WireMessage, after: number, before: number): boolean {
  if (message.method !== undefined) {
    const data = fixtureData(message.params);
    return history.app.some(
      (e) =>
        e.kind === 'notification' &&
        e.at > after &&
        e.at < before &&
        e.method === message.method &&
        JSON.stringify(fixtureData(e.params) ?? e.params) === JSON.stringify(data ?? message.params),
    );
  }
  // A response to the client's own request (initialize, ping): the client processed it to go on.
  const request = clientRequests(history.wire).find(
    (r) => r.at < after && r.messages.some((m) => m.method !== undefined && m.id !== undefined && m.id === message.id),
  );
  const asked = request?.messages.find((m) => m.id === message.id)?.method;
  if (asked !== undefined && asked !== 'tools/call') return true;
  // A tool call's: some call settled with it (the application has the result, or the error).
  return history.app.some((e) => e.kind === 'settled' && e.at > after && e.at < before && e.outcome !== 'pending');
}

const resumeCursorProcessed: Judge = (history) => {
  let judged = false;
  for (const request of clientRequests(history.wire)) {
    if (request.method !== 'GET' || request.lastEventId === undefined) continue;
    judged = true;
    // The first frame that carried the cursor: a replay may carry it again, and a deduplicating
    // client rightly drops the copy.
    const frame = history.wire.find((e): e is WireFrame => e.kind === 'frame' && e.at < request.at && e.id === request.lastEventId);
    if (!frame) {
      return {
        status: 'fail',
        reason: `resume at ${request.path} presented Last-Event-ID ${request.lastEventId}, which no frame the client received carried`,
        at: request.at,
      };
    }
    if (frame.message === undefined) continue;
    if (!processed(history, frame.message, frame.at, request.at)) {
      const what =
        frame.message.method !== undefined ? `notification ${JSON.stringify(frame.message.params)}` : `response to request ${String(frame.message.id)}`;
      return {
        status: 'fail',
        reason: `resume presented Last-Event-ID ${request.lastEventId}, whose ${what} the application had not processed: a replay after it skips that message`,
        at: request.at,
      };
    }
  }
  return judged ? pass : notApplicable;
};

/** The session IDs each transport issued: streamable in `Mcp-Session-Id` answers, legacy in `endpoint` events. */
function issuedSessions(wire: WireEntry[]): { legacy: Set<string>; streamable: Set<string> } {
  const legacy = new Set<string>();
  const streamable = new Set<string>();
  for (const entry of wire) {
    if (entry.kind === 'frame' && entry.event === 'endpoint') {
      const session = /[?&]sessionId=([^&]+)/.exec(entry.data)?.[1];
      if (session) legacy.add(decodeURIComponent(session));
    }
    if (entry.kind === 'response' && entry.sessionId !== undefined) streamable.add(entry.sessionId);
  }
  return { legacy, streamable };
}

/**
 * The MUST's clause: after a 404 to a request presenting a streamable session at /mcp, the next
 * request to /mcp is an InitializeRequest without a session ID. The derived clause: once the new
 * session's initialization returned an ID, no later request to /mcp presents the dead one in its
 * `Mcp-Session-Id` header (it must carry the new one there).
 */
const reinitializesOn404: Judge = ({ wire }) => {
  let judged = false;
  const requests = clientRequests(wire);
  const issued = issuedSessions(wire);
  for (const response of wire) {
    if (response.kind !== 'response' || response.status !== 404) continue;
    const request = requests.find((r) => r.exchange === response.exchange);
    if (request?.path !== '/mcp' || request.sessionId === undefined) continue;
    // A legacy session presented at /mcp is refused there, not ended at its own endpoint: that
    // presentation is client-no-cross-transport-session's to judge.
    if (issued.legacy.has(request.sessionId) && !issued.streamable.has(request.sessionId)) continue;
    judged = true;
    const dead = request.sessionId;
    const later = requests.filter((r) => r.at > response.at && r.path === '/mcp');
    const next = later[0];
    if (next && !(next.messages[0]?.method === 'initialize' && next.sessionId === undefined)) {
      const what = `${next.method} ${next.path}${next.messages[0]?.method !== undefined ? ` ${next.messages[0].method}` : ''}`;
      const reason =
        next.sessionId === dead
          ? `after a 404 for session ${dead}, the client presented it again (${what}) instead of sending an InitializeRequest without a session ID`
          : `after a 404 for session ${dead}, the next request to /mcp was ${what}, not an InitializeRequest without a session ID`;
      return { status: 'fail', reason, at: next.at };
    }
    if (!next) continue;
    const assigned = wire.find((e) => e.kind === 'response' && e.exchange === next.exchange && e.sessionId !== undefined && e.sessionId !== dead);
    if (assigned?.kind !== 'response') continue;
    const again = later.find((r) => r.at > assigned.at && r.sessionId === dead);
    if (again) {
      return {
        status: 'fail',
        reason: `after a 404 for session ${dead} and a new session ${assigned.sessionId!}, the client presented the dead session again (${again.method} ${again.path}) where it must present the new one`,
        at: again.at,
      };
    }
  }
  return judged ? pass : notApplicable;
};

/** The ways a request presents a session: the `sessionId` of its query string, its `Mcp-Session-Id` header. */
function presented(request: WireRequest): Array<{ session: string; as: string }> {
  return [
    ...(request.querySession !== undefined ? [{ session: request.querySession, as: 'in the query string (?sessionId=)' }] : []),
    ...(request.sessionId !== undefined ? [{ session: request.sessionId, as: 'in the Mcp-Session-Id header' }] : []),
  ];
}

/**
 * Judged only where a client could carry a session to the other transport: it held a legacy
 * session and its legacy stream was cut (it must reconnect somewhere: seed 003's moment), or it
 * sent requests at both transports' endpoints. A run over one transport with nothing cut gave it
 * no occasion, and passing it there would claim what was never tried. Every way a request can
 * present a session (the query string's `sessionId`, the `Mcp-Session-Id` header) is judged at
 * every endpoint of the other transport: `/mcp` for a legacy session, any other path for a
 * streamable one.
 */
const noCrossTransportSession: Judge = ({ wire }) => {
  const legacy = new Set<string>();
  const streamable = new Set<string>();
  const legacyExchanges = new Set<number>();
  const endpoints = new Set<'mcp' | 'legacy'>();
  let judged = false;
  for (const entry of wire) {
    if (entry.kind === 'frame' && entry.event === 'endpoint') {
      const session = /[?&]sessionId=([^&]+)/.exec(entry.data)?.[1];
      if (session) legacy.add(decodeURIComponent(session));
    }
    if (entry.kind === 'response' && entry.sessionId !== undefined) streamable.add(entry.sessionId);
    if (entry.kind === 'end' && entry.cut && legacy.size > 0 && legacyExchanges.has(entry.exchange)) judged = true;
    if (entry.kind !== 'request' || entry.origin !== 'client') continue;
    const atMcp = entry.path === '/mcp';
    if (!atMcp) legacyExchanges.add(entry.exchange);
    endpoints.add(atMcp ? 'mcp' : 'legacy');
    if (endpoints.size === 2 && (legacy.size > 0 || streamable.size > 0)) judged = true;
    // A session the other transport issued (and this one did not: an ID both issued is ambiguous).
    const foreign = atMcp ? (id: string) => legacy.has(id) && !streamable.has(id) : (id: string) => streamable.has(id) && !legacy.has(id);
    const crossed = presented(entry).find((p) => foreign(p.session));
    if (crossed) {
      const what = atMcp ? 'legacy' : 'streamable';
      return {
        status: 'fail',
        reason: `presented ${what} session ${crossed.session} at ${entry.path} ${crossed.as} (${entry.method}${entry.lastEventId ? ` with Last-Event-ID ${entry.lastEventId}` : ''})`,
        at: entry.at,
      };
    }
  }
  return judged ? pass : notApplicable;
};

const noSilentResend: Judge = ({ app, wire }) => {
  let judged = false;
  const accepted = new Set(wire.filter((e) => e.kind === 'response' && e.status >= 200 && e.status < 300).map((e) => e.exchange));
  const requests = clientRequests(wire);
  for (const call of calls(app)) {
    const args = emitArgs(call);
    if (!args) continue;
    judged = true;
    const sends = requests.filter(
      (r) =>
        accepted.has(r.exchange) &&
        r.messages.some((m) => {
          const p = m.params as { name?: unknown; arguments?: { label?: unknown } } | undefined;
          return m.method === 'tools/call' && p?.name === call.name && p.arguments?.label === args.label;
        }),
    );
    if (sends.length > 1) {
      return {
        status: 'fail',
        reason: `call ${call.call} (${call.name} "${args.label}") was made once by the application and accepted by the server ${sends.length} times`,
        at: sends[1]!.at,
      };
    }
  }
  return judged ? pass : notApplicable;
};

const boundedWait: Judge = ({ app, boundMs }) => {
  const all = calls(app);
  for (const call of all) {
    const settled = settledOf(app, call.call);
    if (settled === undefined || settled.outcome === 'pending') {
      return { status: 'fail', reason: `call ${call.call} (${call.name}) neither resolved nor rejected within ${boundMs} ms`, at: settled?.at ?? call.at };
    }
  }
  return all.length > 0 ? pass : notApplicable;
};

/** The judges, by property. */
export const clientJudges: Record<ClientPropertyId, Judge> = {
  'client-delivers-exactly-once': deliversExactlyOnce,
  'client-resume-cursor-processed': resumeCursorProcessed,
  'client-reinitializes-on-404': reinitializesOn404,
  'client-no-cross-transport-session': noCrossTransportSession,
  'client-no-silent-resend': noSilentResend,
  'client-bounded-wait': boundedWait,
};
