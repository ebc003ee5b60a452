/**
 * Hand-built histories for the judges' unit tests: what the checking client would record, written
 * step by step (`properties/history.ts` is the format). Each method appends entries with the next
 * `seq` and returns the connection it used.
 */
import type { Transport } from '../../model/transport.js';
import { HistoryView } from '../../properties/history-view.js';
import type { History, HistoryEntry, JsonRpcMessage, NewEntry, Purpose } from '../../properties/history.js';

/** The capabilities the builder's client declares unless told otherwise. */
export const declared = { roots: { listChanged: true } };

/** The fixture notification `seq` of `label`. */
export function note(label: string, seq: number): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { label, seq } } };
}

/** A tool result whose text is `json`. */
export function toolResult(id: number, json: unknown): JsonRpcMessage {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(json) }] } };
}

/** The result of `emit` with `label`, run `executions` times. */
export function emitResult(id: number, label: string, executions = 1): JsonRpcMessage {
  return toolResult(id, { label, executions });
}

interface StreamAnswer {
  status?: number;
  /** Answer with an SSE stream (default for a 2xx), else a JSON body. */
  sse?: boolean;
  body?: unknown;
  headers?: Record<string, string>;
}

export class HistoryBuilder {
  readonly entries: HistoryEntry[] = [];
  private conn = 0;
  private rpcId = 100;

  get history(): History {
    return { entries: this.entries };
  }

  view(): HistoryView {
    return new HistoryView(this.history);
  }

  /** Appends one entry. */
  add(entry: NewEntry): HistoryEntry {
    const full = { ...entry, seq: this.entries.length, at: this.entries.length } as HistoryEntry;
    this.entries.push(full);
    return full;
  }

  private request(fields: {
    transport: Transport;
    purpose: Purpose;
    method: 'GET' | 'POST' | 'DELETE';
    endpoint?: 'mcp' | 'sse' | 'messages';
    sessionId?: string;
    body?: unknown;
    lastEventId?: string;
    resumes?: number;
  }): number {
    const conn = ++this.conn;
    const endpoint = fields.endpoint ?? (fields.transport === 'sse' ? (fields.method === 'GET' ? 'sse' : 'messages') : 'mcp');
    const headers: Record<string, string> = {};
    if (fields.sessionId !== undefined && fields.transport === 'streamable') headers['mcp-session-id'] = fields.sessionId;
    if (fields.lastEventId !== undefined) headers['last-event-id'] = fields.lastEventId;
    this.add({
      type: 'request',
      conn,
      transport: fields.transport,
      endpoint,
      purpose: fields.purpose,
      method: fields.method,
      url: `http://127.0.0.1/${endpoint}`,
      headers,
      ...(fields.body !== undefined ? { body: fields.body } : {}),
      ...(fields.sessionId !== undefined ? { sessionId: fields.sessionId } : {}),
      ...(fields.lastEventId !== undefined ? { lastEventId: fields.lastEventId } : {}),
      ...(fields.resumes !== undefined ? { resumes: fields.resumes } : {}),
    });
    return conn;
  }

  private answer(conn: number, a: StreamAnswer, sessionHeader?: string): void {
    const status = a.status ?? 200;
    const sse = a.sse ?? (status < 300 && a.body === undefined);
    const headers: Record<string, string> = { 'content-type': sse ? 'text/event-stream' : 'application/json', ...a.headers };
    if (sessionHeader !== undefined) headers['mcp-session-id'] = sessionHeader;
    this.add({ type: 'response', conn, status, headers });
    if (!sse && a.body !== undefined) this.add({ type: 'body', conn, text: JSON.stringify(a.body), json: a.body });
  }

  /**
   * A streamable session: `initialize` answered with a JSON body and the session ID `id`.
   * With `opening`, the answer is an SSE stream opened by a priming event of that ID.
   */
  initialize(id: string, options: { capabilities?: unknown; protocolVersion?: string; opening?: string; error?: boolean } = {}): number {
    const rpc = ++this.rpcId;
    const conn = this.request({
      transport: 'streamable',
      purpose: 'initialize',
      method: 'POST',
      body: {
        jsonrpc: '2.0',
        id: rpc,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: options.capabilities ?? declared, clientInfo: { name: 't', version: '0' } },
      },
    });
    const response: JsonRpcMessage = options.error
      ? { jsonrpc: '2.0', id: rpc, error: { code: -32600, message: 'no' } }
      : {
          jsonrpc: '2.0',
          id: rpc,
          result: { protocolVersion: options.protocolVersion ?? '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '0' } },
        };
    if (options.opening === undefined) {
      this.answer(conn, { body: response }, id);
    } else {
      this.answer(conn, { sse: true }, id);
      this.frame(conn, options.opening, undefined);
      this.frame(conn, undefined, response);
      this.add({ type: 'end', conn });
    }
    return conn;
  }

  /** A legacy session: `GET /sse` announcing session `id`, then `initialize` posted, answered on that stream. */
  legacySession(id: string, options: { capabilities?: unknown } = {}): number {
    const legacy = this.request({ transport: 'sse', purpose: 'open-legacy', method: 'GET' });
    this.answer(legacy, { sse: true });
    this.add({ type: 'receive', conn: legacy, event: 'endpoint', data: `/messages?sessionId=${id}` });
    const rpc = ++this.rpcId;
    const post = this.request({
      transport: 'sse',
      purpose: 'initialize',
      method: 'POST',
      sessionId: id,
      body: { jsonrpc: '2.0', id: rpc, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: options.capabilities ?? declared } },
    });
    this.answer(post, { status: 202, sse: false });
    this.frame(legacy, undefined, { jsonrpc: '2.0', id: rpc, result: { protocolVersion: '2024-11-05', capabilities: {} } });
    return legacy;
  }

  /**
   * A JSON-RPC request posted in `session` (streamable unless `transport` says otherwise), answered
   * with an SSE stream by default. Returns the connection and the request's JSON-RPC ID.
   */
  post(session: string, method: string, params: unknown, answer: StreamAnswer = {}, transport: Transport = 'streamable'): { conn: number; id: number } {
    const id = ++this.rpcId;
    const purpose: Purpose = method === 'tools/call' ? 'call' : method === 'ping' ? 'ping' : 'other';
    const conn = this.request({ transport, purpose, method: 'POST', sessionId: session, body: { jsonrpc: '2.0', id, method, params } });
    if (transport === 'sse') this.answer(conn, { status: 202, sse: false, ...answer });
    else this.answer(conn, answer);
    return { conn, id };
  }

  /** `tools/call emit {label, count}` in `session`. */
  emit(session: string, label: string, count: number, answer: StreamAnswer = {}, transport: Transport = 'streamable'): { conn: number; id: number } {
    return this.post(session, 'tools/call', { name: 'emit', arguments: { label, count } }, answer, transport);
  }

  /** `tools/call emit_unsolicited {label, count}` in `session`. */
  emitUnsolicited(session: string, label: string, count: number): { conn: number; id: number } {
    return this.post(session, 'tools/call', { name: 'emit_unsolicited', arguments: { label, count } });
  }

  /** `tools/call session_info` in `session`, answered on its own stream with `info`. */
  sessionInfo(session: string, info: { protocolVersion: unknown; clientCapabilities: unknown }): number {
    const { conn, id } = this.post(session, 'tools/call', { name: 'session_info', arguments: {} });
    this.frame(conn, undefined, toolResult(id, info));
    this.add({ type: 'end', conn });
    return conn;
  }

  /** The standalone GET stream of `session`. */
  openStandalone(session: string, answer: StreamAnswer = {}): number {
    const conn = this.request({ transport: 'streamable', purpose: 'open-standalone', method: 'GET', sessionId: session });
    this.answer(conn, answer);
    return conn;
  }

  /** A GET presenting `lastEventId` in `session`, meant to continue the stream of `resumes` (if given). */
  resume(session: string, lastEventId: string, answer: StreamAnswer | 'none' = {}, options: { resumes?: number; transport?: Transport } = {}): number {
    const transport = options.transport ?? 'streamable';
    const conn = this.request({
      transport,
      purpose: 'resume',
      method: 'GET',
      sessionId: session,
      lastEventId,
      ...(options.resumes !== undefined ? { resumes: options.resumes } : {}),
    });
    if (answer !== 'none') this.answer(conn, answer);
    return conn;
  }

  /** DELETE of `session`, answered `status`. */
  delete(session: string, status = 200): number {
    const conn = this.request({ transport: 'streamable', purpose: 'delete', method: 'DELETE', sessionId: session });
    this.add({ type: 'response', conn, status, headers: {} });
    return conn;
  }

  /** One SSE frame received on `conn` (`message` undefined: a priming event, empty data). */
  frame(conn: number, id: string | undefined, message: JsonRpcMessage | undefined): HistoryEntry {
    return this.add({
      type: 'receive',
      conn,
      event: 'message',
      data: message === undefined ? '' : JSON.stringify(message),
      ...(id !== undefined ? { id } : {}),
      ...(message !== undefined ? { message } : {}),
    });
  }

  /** The application processes a frame received on `conn`. */
  drain(conn: number, id: string | undefined, message: JsonRpcMessage | undefined, duplicate = false): HistoryEntry {
    return this.add({
      type: 'drain',
      conn,
      ...(id !== undefined ? { id } : {}),
      ...(message !== undefined ? { message } : {}),
      ...(duplicate ? { duplicate } : {}),
    });
  }

  /** A frame received and processed. */
  deliver(conn: number, id: string | undefined, message: JsonRpcMessage | undefined): void {
    this.frame(conn, id, message);
    this.drain(conn, id, message);
  }

  /** The client cuts `conn`. */
  drop(conn: number, options: { undrained?: number; atClose?: boolean } = {}): void {
    this.add({ type: 'drop', conn, undrained: options.undrained ?? 0, ...(options.atClose ? { atClose: true } : {}) });
  }

  /** The server ends `conn`'s body. */
  end(conn: number): void {
    this.add({ type: 'end', conn });
  }

  /** The client waited on `conn` for the response to `awaiting` until its bound. */
  timeout(conn: number, awaiting: number): HistoryEntry {
    return this.add({ type: 'failure', conn, reason: 'timeout', detail: `no response to id ${awaiting} within 1000 ms`, awaiting });
  }
}
