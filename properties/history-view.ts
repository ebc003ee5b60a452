/**
 * A history read back into the protocol's terms: exchanges (one HTTP request and what came of
 * it), sessions, tool calls, and the logical stream each connection carries. Judges read
 * histories through this view.
 */
import type { Transport } from '../model/transport.js';
import type {
  BodyEntry,
  DrainEntry,
  DropEntry,
  EndEntry,
  FailureEntry,
  History,
  JsonRpcMessage,
  ReceiveEntry,
  RequestEntry,
  ResponseEntry,
} from './history.js';
import { isObject, isResponseTo } from './messages.js';

/** One HTTP exchange and everything recorded on its connection. */
export interface Exchange {
  conn: number;
  request: RequestEntry;
  response?: ResponseEntry;
  body?: BodyEntry;
  receives: ReceiveEntry[];
  drains: DrainEntry[];
  drop?: DropEntry;
  end?: EndEntry;
  failures: FailureEntry[];
}

/** The skip reason of a replay property when the candidate sent no event ID at all. */
export const resumptionNotOffered = 'resumption not offered: the candidate sent no event ID on any stream, so there was no cursor to resume from';

/** Where a resume's `Last-Event-ID` came from (see `HistoryView.cursorSource`). */
export type CursorSource = 'stream' | 'session' | 'foreign' | 'made-up';

/** A session the client established. */
export interface SessionView {
  id: string;
  transport: Transport;
  /** Client capabilities declared in this session's initialize. */
  capabilities: unknown;
  /** The protocol version the server answered. */
  protocolVersion?: string;
  /** The legacy session's `GET /sse` connection. */
  legacyConn?: number;
}

/** A JSON-RPC request the client sent, and where its response was expected. */
export interface RequestView {
  conn: number;
  id: number | string;
  method: string;
  params: unknown;
  transport: Transport;
  sessionId?: string;
  /** The connection the response was expected on: the POST's own stream, or the legacy stream. */
  streamConn?: number;
}

function newExchange(request: RequestEntry): Exchange {
  return { conn: request.conn, request, receives: [], drains: [], failures: [] };
}

/** A history indexed for judging. */
export class HistoryView {
  readonly exchanges = new Map<number, Exchange>();
  readonly sessions: SessionView[] = [];
  readonly requests: RequestView[] = [];
  /** Event IDs received per session: ID to the frames that carried it. */
  private readonly framesById = new Map<string, Map<string, ReceiveEntry[]>>();

  constructor(readonly history: History) {
    const legacyBySession = new Map<string, number>();
    for (const entry of history.entries) {
      if (entry.type === 'request') {
        this.exchanges.set(entry.conn, newExchange(entry));
        continue;
      }
      if (!('conn' in entry) || entry.conn === undefined) continue;
      const exchange = this.exchanges.get(entry.conn);
      if (!exchange) continue;
      switch (entry.type) {
        case 'response':
          exchange.response = entry;
          break;
        case 'body':
          exchange.body = entry;
          break;
        case 'receive':
          exchange.receives.push(entry);
          if (entry.event === 'endpoint') {
            const id = legacySessionId(entry.data);
            if (id !== undefined) legacyBySession.set(id, entry.conn);
          }
          break;
        case 'drain':
          exchange.drains.push(entry);
          break;
        case 'drop':
          exchange.drop = entry;
          break;
        case 'end':
          exchange.end = entry;
          break;
        case 'failure':
          exchange.failures.push(entry);
          break;
      }
    }
    for (const exchange of this.exchanges.values()) {
      const { request } = exchange;
      const body = request.body;
      if (!isObject(body) || typeof body.method !== 'string' || body.id === undefined) continue;
      const view: RequestView = {
        conn: request.conn,
        id: body.id as number | string,
        method: body.method,
        params: body.params,
        transport: request.transport,
      };
      const sessionId = request.sessionId ?? (request.transport === 'streamable' ? exchange.response?.headers['mcp-session-id'] : undefined);
      if (sessionId !== undefined) view.sessionId = sessionId;
      if (request.transport === 'sse' && sessionId !== undefined) {
        const legacy = legacyBySession.get(sessionId);
        if (legacy !== undefined) view.streamConn = legacy;
      } else if (exchange.response?.headers['content-type']?.includes('text/event-stream')) {
        view.streamConn = request.conn;
      }
      this.requests.push(view);
      if (body.method === 'initialize' && sessionId !== undefined) {
        const response = this.responseTo(view);
        const result = isObject(response?.result) ? response.result : undefined;
        const session: SessionView = {
          id: sessionId,
          transport: request.transport,
          capabilities: isObject(body.params) ? body.params.capabilities : undefined,
        };
        if (typeof result?.protocolVersion === 'string') session.protocolVersion = result.protocolVersion;
        if (request.transport === 'sse') session.legacyConn = legacyBySession.get(sessionId);
        if (response && !response.error) this.sessions.push(session);
      }
    }
    for (const exchange of this.exchanges.values()) {
      const session = this.sessionOfConn(exchange.conn);
      if (session === undefined) continue;
      let ids = this.framesById.get(session);
      if (!ids) this.framesById.set(session, (ids = new Map()));
      for (const frame of exchange.receives) {
        if (frame.id === undefined || frame.id === '') continue;
        const list = ids.get(frame.id) ?? [];
        list.push(frame);
        ids.set(frame.id, list);
      }
    }
  }

  /** The session a connection belongs to, as the request presented it (or the server issued it). */
  sessionOfConn(conn: number): string | undefined {
    const exchange = this.exchanges.get(conn);
    if (!exchange) return undefined;
    if (exchange.request.sessionId !== undefined) return exchange.request.sessionId;
    if (exchange.request.purpose === 'open-legacy') {
      for (const frame of exchange.receives) {
        if (frame.event === 'endpoint') return legacySessionId(frame.data);
      }
    }
    return exchange.response?.headers['mcp-session-id'];
  }

  session(id: string | undefined): SessionView | undefined {
    return id === undefined ? undefined : this.sessions.find((s) => s.id === id);
  }

  /** The response to a request, wherever it arrived (JSON body or any frame of its stream), if any. */
  responseTo(request: RequestView): JsonRpcMessage | undefined {
    const own = this.exchanges.get(request.conn);
    const fromBody = own?.body?.json;
    if (isObject(fromBody) && isResponseTo(fromBody as JsonRpcMessage, request.id)) return fromBody as JsonRpcMessage;
    for (const conn of this.connsOfStream(request.streamConn ?? request.conn)) {
      for (const frame of this.exchanges.get(conn)?.receives ?? []) {
        if (isResponseTo(frame.message, request.id)) return frame.message;
      }
    }
    return undefined;
  }

  /** Where a cursor was received: the frames carrying that ID in the session, or in any session. */
  framesWithId(id: string, sessionId?: string): ReceiveEntry[] {
    if (sessionId !== undefined) return this.framesById.get(sessionId)?.get(id) ?? [];
    return [...this.framesById.values()].flatMap((ids) => ids.get(id) ?? []);
  }

  /** Every resume request (a GET presenting a `Last-Event-ID`), in order. */
  resumes(): Exchange[] {
    return [...this.exchanges.values()].filter((e) => e.request.purpose === 'resume');
  }

  /** The stream a connection opened, as the run's trace names it, else by its connection number (for a verdict's text). */
  streamName(conn: number): string {
    return this.history.streamNames?.[conn] ?? `the stream of connection ${conn}`;
  }

  /**
   * The logical stream a connection carries: itself, or for a resume, the logical stream the
   * client meant to continue (recorded with the request), else the one its cursor was received on.
   */
  originOf(conn: number, seen = new Set<number>()): number {
    const exchange = this.exchanges.get(conn);
    if (exchange?.request.purpose !== 'resume' || seen.has(conn)) return conn;
    seen.add(conn);
    const meant = exchange.request.resumes;
    if (meant !== undefined && meant !== conn && this.exchanges.has(meant)) return this.originOf(meant, seen);
    const cursor = exchange.request.lastEventId;
    if (cursor === undefined) return conn;
    const [frame] = this.framesWithId(cursor, this.sessionOfConn(conn)).filter((f) => f.conn !== conn);
    return frame ? this.originOf(frame.conn, seen) : conn;
  }

  /** Every connection that carried the logical stream `origin`, in order. */
  connsOfStream(origin: number): number[] {
    return [...this.exchanges.keys()].filter((conn) => this.originOf(conn) === origin).sort((a, b) => a - b);
  }

  /**
   * Where a resume's `Last-Event-ID` came from: received on the stream it resumes (`stream`),
   * elsewhere in its session (`session`), in another session (`foreign`), or never sent by the
   * candidate at all: a cursor the checker made up (`made-up`). Undefined for a connection that
   * presented no cursor.
   */
  cursorSource(conn: number): CursorSource | undefined {
    const exchange = this.exchanges.get(conn);
    const cursor = exchange?.request.lastEventId;
    if (!exchange || cursor === undefined || cursor === '') return undefined;
    const before = (f: ReceiveEntry) => f.conn !== conn && f.seq < exchange.request.seq;
    const inSession = this.framesWithId(cursor, this.sessionOfConn(conn)).filter(before);
    if (inSession.length > 0) {
      const meant = this.meantStream(conn);
      return meant !== undefined && inSession.some((f) => this.originOf(f.conn) === meant) ? 'stream' : 'session';
    }
    return this.framesWithId(cursor).some(before) ? 'foreign' : 'made-up';
  }

  /**
   * Whether the stream a resume continues offered a cursor: the candidate sent an event ID on it
   * before the resume. When the client did not say which stream it continues: whether the
   * candidate had sent any event ID before (its cursor, or another).
   */
  offeredCursor(conn: number): boolean {
    const exchange = this.exchanges.get(conn);
    if (!exchange) return false;
    const meant = this.meantStream(conn);
    const carriedId = (c: number) => c !== conn && (this.exchanges.get(c)?.receives ?? []).some((f) => !!f.id && f.seq < exchange.request.seq);
    if (meant !== undefined) return this.connsOfStream(meant).some(carriedId);
    return [...this.exchanges.keys()].some(carriedId);
  }

  /**
   * A resume a real client could make: it presents a cursor the candidate sent (in this session
   * or another), for a stream that offered one. A cursor the checker made up, or a resume of a
   * stream that never carried an event ID, probes how unplaceable cursors are answered; what
   * follows it is never a loss or a stall of the candidate.
   */
  isClientResume(conn: number): boolean {
    const source = this.cursorSource(conn);
    return source !== undefined && source !== 'made-up' && this.offeredCursor(conn);
  }

  /**
   * Whether `conn` is a resume no real client would make (a made-up cursor, or a cursor for a
   * stream that never offered one): the checker's probe of how such cursors are answered.
   */
  isCursorProbe(conn: number | undefined): boolean {
    if (conn === undefined || this.exchanges.get(conn)?.request.purpose !== 'resume') return false;
    return this.cursorSource(conn) !== undefined && !this.isClientResume(conn);
  }

  /** Whether the candidate sent an event ID on any stream: it offers resumption. */
  offersResumption(): boolean {
    return [...this.exchanges.values()].some((e) => e.receives.some((f) => !!f.id));
  }

  /** The logical stream a resume means to continue: as recorded with the request, else the stream of its cursor. */
  private meantStream(conn: number): number | undefined {
    const origin = this.originOf(conn);
    return origin === conn ? undefined : origin;
  }

  /** The status a connection was answered with (undefined: no response). */
  status(conn: number): number | undefined {
    return this.exchanges.get(conn)?.response?.status;
  }

  /** True when a connection's answer was an SSE stream with a 2xx status. */
  isAcceptedStream(conn: number): boolean {
    const exchange = this.exchanges.get(conn);
    const status = exchange?.response?.status;
    return status !== undefined && status >= 200 && status < 300 && !!exchange?.response?.headers['content-type']?.includes('text/event-stream');
  }

  /** For a legacy `GET /sse` answer: whether its endpoint event announced a session other than `sessionId`. */
  announcesOtherSession(conn: number, sessionId: string | undefined): boolean {
    const frame = this.exchanges.get(conn)?.receives.find((f) => f.event === 'endpoint');
    if (!frame) return false;
    const announced = legacySessionId(frame.data);
    return announced !== undefined && announced !== sessionId;
  }
}

/**
 * The session ID in a legacy `endpoint` event's URI: its `sessionId` query parameter (the
 * TypeScript SDK's name) or `session_id` (the Python SDK's); the 2024-11-05 spec names neither.
 */
export function legacySessionId(data: string): string | undefined {
  try {
    const query = new URL(data, 'http://x/').searchParams;
    return query.get('sessionId') ?? query.get('session_id') ?? undefined;
  } catch {
    return undefined;
  }
}
