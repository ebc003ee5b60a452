/** The client judges on small hand-made histories: each can fail, and each passes its correct twin. */
import { describe, expect, it } from 'vitest';
import type { AppEntry, ClientHistory, WireEntry } from '../../properties/client/history.js';
import { clientJudges } from '../../properties/client/judges.js';
import { clientDefinitions } from '../../properties/client/definitions.js';

function history(wire: WireEntry[], app: AppEntry[]): ClientHistory {
  return { transport: 'streamable', wire, app, boundMs: 1000 };
}
const note = (at: number, seq: number): AppEntry => ({
  kind: 'notification',
  at,
  method: 'notifications/message',
  params: { level: 'info', data: { label: 'a', seq } },
});
const call: AppEntry = { kind: 'call', at: 1, call: 1, name: 'emit', args: { label: 'a', count: 2 } };
const result = (executions: number) => ({ content: [{ type: 'text', text: JSON.stringify({ label: 'a', executions }) }] });
const resolved = (at: number, value: unknown = result(1)): AppEntry => ({ kind: 'settled', at, call: 1, outcome: 'resolved', value });
/** The server's result for call 1 (label `a`), as a frame of its stream. */
const sentResult = (at: number, executions = 1): WireEntry => ({
  kind: 'frame',
  at,
  exchange: 1,
  id: `r${executions}`,
  data: '',
  message: { id: 1000, result: result(executions) },
});
const request = (at: number, exchange: number, extra: Partial<Extract<WireEntry, { kind: 'request' }>> = {}): WireEntry => ({
  kind: 'request',
  at,
  exchange,
  origin: 'client',
  method: 'POST',
  path: '/mcp',
  messages: [],
  ...extra,
});
const frame = (at: number, id: string, seq: number): WireEntry => ({
  kind: 'frame',
  at,
  exchange: 1,
  id,
  data: '',
  message: { method: 'notifications/message', params: { level: 'info', data: { label: 'a', seq } } },
});

describe('client judges', () => {
  it('delivers-exactly-once: loss and duplicates fail, a rejected call may miss messages', () => {
    const judge = clientJudges['client-delivers-exactly-once'];
    const sent = [sentResult(0)];
    expect(judge(history(sent, [call, note(2, 1), note(3, 2), resolved(4)])).status).toBe('pass');
    expect(judge(history(sent, [call, note(2, 1), resolved(4)]))).toMatchObject({ status: 'fail', at: 4 });
    expect(judge(history(sent, [call, note(2, 1), note(3, 1), note(4, 2), resolved(5)]))).toMatchObject({ status: 'fail', at: 3 });
    expect(judge(history([], [call, note(2, 1), { kind: 'settled', at: 3, call: 1, outcome: 'rejected', error: 'x' }])).status).toBe('pass');
  });

  it('delivers-exactly-once: a call resolved with a result the server did not send for it fails, naming the result', () => {
    const judge = clientJudges['client-delivers-exactly-once'];
    // Every notification delivered once, the result made up: the loss is the result's.
    const madeUp = judge(history([sentResult(0)], [call, note(2, 1), note(3, 2), resolved(4, { content: [] })]));
    expect(madeUp).toMatchObject({ status: 'fail', at: 4 });
    expect(madeUp.status === 'fail' ? madeUp.reason : '').toBe(
      'call 1 (emit "a") resolved with {"content":[]}, which is no result the server sent: the server sent {"label":"a","executions":1} for it',
    );
    // A result the server never sent (none on the wire), or another execution's.
    expect(judge(history([], [call, note(2, 1), note(3, 2), resolved(4)]))).toMatchObject({
      status: 'fail',
      reason: expect.stringMatching(/the server sent no result for it$/),
    });
    expect(judge(history([sentResult(0)], [call, note(2, 1), note(3, 2), resolved(4, result(2))]))).toMatchObject({ status: 'fail', at: 4 });
    // A re-sent call's second execution is a result the server sent for it (the re-send is no-silent-resend's).
    expect(judge(history([sentResult(0), sentResult(1, 2)], [call, note(2, 1), note(3, 2), resolved(4, result(2))])).status).toBe('pass');
    // A result in a JSON response body counts as one in a frame; extra fields a client adds are its own.
    const body: WireEntry = { kind: 'response', at: 0, exchange: 1, status: 200, stream: false, messages: [{ id: 1000, result: result(1) }] };
    expect(judge(history([body], [call, note(2, 1), note(3, 2), resolved(4, { ...result(1), isError: false })])).status).toBe('pass');
  });

  it('resume-cursor-processed: a cursor past what the application has fails', () => {
    const judge = clientJudges['client-resume-cursor-processed'];
    const wire = [frame(2, 'e1', 1), frame(3, 'e2', 2)];
    const resume = (at: number, id: string) => request(at, 2, { method: 'GET', lastEventId: id });
    expect(judge(history([...wire, resume(6, 'e2')], [call, note(4, 1), note(5, 2)])).status).toBe('pass');
    expect(judge(history([...wire, resume(6, 'e2')], [call, note(4, 1)]))).toMatchObject({ status: 'fail', at: 6 });
    expect(judge(history([...wire, resume(6, 'e9')], [call]))).toMatchObject({ status: 'fail' });
    expect(judge(history(wire, [call])).status).toBe('n/a');
    // A replayed copy of the cursor's frame that a deduplicating client dropped: still processed (the first copy).
    const replayed = [...wire, frame(6, 'e2', 2)];
    expect(judge(history([...replayed, resume(7, 'e2')], [call, note(4, 1), note(5, 2)])).status).toBe('pass');
  });

  it('reinitializes-on-404: re-presenting the dead session fails, a new initialize passes', () => {
    const judge = clientJudges['client-reinitializes-on-404'];
    const dead: WireEntry[] = [request(1, 1, { sessionId: 's1' }), { kind: 'response', at: 2, exchange: 1, status: 404, stream: false, messages: [] }];
    expect(judge(history([...dead, request(3, 2, { messages: [{ method: 'initialize', id: 1 }] })], [])).status).toBe('pass');
    const presented = judge(history([...dead, request(3, 2, { sessionId: 's1', messages: [{ method: 'tools/call', id: 2 }] })], []));
    expect(presented).toMatchObject({ status: 'fail', at: 3 });
    expect(presented.status === 'fail' ? presented.reason : '').toBe(
      'after a 404 for session s1, the client presented it again (POST /mcp tools/call) instead of sending an InitializeRequest without a session ID',
    );
    expect(judge(history([...dead, request(3, 2, { sessionId: 's2', messages: [{ method: 'tools/call', id: 2 }] })], []))).toMatchObject({
      status: 'fail',
      at: 3,
    });
    // The derived clause: once the new session has an ID, a request presenting the dead one fails;
    // where the new initialization returned no ID, no sentence forbids it, and it is not judged.
    const renewed = (sessionId?: string): WireEntry[] => [
      ...dead,
      request(3, 2, { messages: [{ method: 'initialize', id: 1 }] }),
      { kind: 'response', at: 4, exchange: 2, status: 200, stream: false, messages: [], ...(sessionId !== undefined ? { sessionId } : {}) },
      request(5, 3, { method: 'GET', sessionId: 's1', lastEventId: 'e1' }),
    ];
    const derived = judge(history(renewed('s2'), []));
    expect(derived).toMatchObject({ status: 'fail', at: 5 });
    expect(derived.status === 'fail' ? derived.reason : '').toBe(
      'after a 404 for session s1 and a new session s2, the client presented the dead session again (GET /mcp) where it must present the new one',
    );
    expect(judge(history(renewed(), [])).status).toBe('pass');
    // A legacy session refused at /mcp is not dead at its own endpoint: using it there again is fine.
    const endpoint: WireEntry = { kind: 'frame', at: 0, exchange: 9, event: 'endpoint', data: '/messages?sessionId=s1' };
    expect(judge(history([endpoint, ...dead, request(3, 2, { path: '/messages', querySession: 's1' })], [])).status).toBe('n/a');
  });

  it('reinitializes-on-404: DERIVED, its derivation quoting the MUST verbatim and the MUST the never-again clause follows from', () => {
    const definition = clientDefinitions['client-reinitializes-on-404'];
    expect(definition.level).toBe('derived');
    const must =
      'When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.';
    const header =
      'If an MCP-Session-Id is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the MCP-Session-Id header on all of their subsequent HTTP requests.';
    expect(definition.quotes.map((q) => q.text)).toEqual([must, header]);
    expect(definition.derivation).toContain(`"${must}"`);
    expect(definition.derivation).toContain(`"${header}"`);
  });

  it('no-cross-transport-session: a legacy session at /mcp fails', () => {
    const judge = clientJudges['client-no-cross-transport-session'];
    const endpoint: WireEntry = { kind: 'frame', at: 1, exchange: 1, event: 'endpoint', id: 'e1', data: '/messages?sessionId=L1' };
    const open = request(0, 1, { method: 'GET', path: '/sse' });
    const cut: WireEntry = { kind: 'end', at: 3, exchange: 1, cut: true };
    const post = request(2, 2, { path: '/messages', querySession: 'L1' });
    // Judged where the client had to reconnect a cut legacy stream, and kept to the legacy endpoints.
    expect(judge(history([open, endpoint, post, cut, request(4, 3, { method: 'GET', path: '/sse' })], [])).status).toBe('pass');
    expect(judge(history([endpoint, request(2, 2, { method: 'GET', sessionId: 'L1', lastEventId: 'e1' })], []))).toMatchObject({ status: 'fail', at: 2 });
  });

  it('no-cross-transport-session: a session presented at the other transport fails, in the query string or the header alike', () => {
    const judge = clientJudges['client-no-cross-transport-session'];
    const init = request(1, 1, { messages: [{ method: 'initialize', id: 0 }] });
    const session: WireEntry = { kind: 'response', at: 2, exchange: 1, status: 200, sessionId: 'S1', stream: true, messages: [] };
    const cut: WireEntry = { kind: 'end', at: 3, exchange: 1, cut: true };
    const streamable = [init, session, cut];
    const atSse = (extra: Partial<Extract<WireEntry, { kind: 'request' }>>) => request(4, 2, { method: 'GET', path: '/sse', lastEventId: 'e1', ...extra });
    // A streamable session at the legacy endpoints: in the header only (no ?sessionId=), in the query, or both.
    const headerOnly = judge(history([...streamable, atSse({ sessionId: 'S1' })], []));
    expect(headerOnly).toMatchObject({ status: 'fail', at: 4 });
    expect(headerOnly.status === 'fail' ? headerOnly.reason : '').toBe(
      'presented streamable session S1 at /sse in the Mcp-Session-Id header (GET with Last-Event-ID e1)',
    );
    expect(judge(history([...streamable, atSse({ querySession: 'S1' })], []))).toMatchObject({ status: 'fail', at: 4 });
    expect(judge(history([...streamable, request(4, 2, { path: '/messages', sessionId: 'S1' })], []))).toMatchObject({ status: 'fail', at: 4 });
    // Opening a legacy session of its own at /sse presents nothing: judged (both endpoints used), and kept.
    expect(judge(history([...streamable, request(4, 2, { method: 'GET', path: '/sse' })], [])).status).toBe('pass');
    // A legacy session at /mcp: in the query string as in the header.
    const endpoint: WireEntry = { kind: 'frame', at: 1, exchange: 1, event: 'endpoint', id: 'e1', data: '/messages?sessionId=L1' };
    const legacyQuery = judge(history([endpoint, request(2, 2, { method: 'GET', querySession: 'L1', lastEventId: 'e1' })], []));
    expect(legacyQuery).toMatchObject({ status: 'fail', at: 2 });
    expect(legacyQuery.status === 'fail' ? legacyQuery.reason : '').toBe(
      'presented legacy session L1 at /mcp in the query string (?sessionId=) (GET with Last-Event-ID e1)',
    );
  });

  it('no-cross-transport-session: not exercised by a run that gave the client no occasion to use two transports', () => {
    const judge = clientJudges['client-no-cross-transport-session'];
    const endpoint: WireEntry = { kind: 'frame', at: 1, exchange: 1, event: 'endpoint', id: 'e1', data: '/messages?sessionId=L1' };
    // One legacy session, nothing cut.
    expect(
      judge(history([request(0, 1, { method: 'GET', path: '/sse' }), endpoint, request(2, 2, { path: '/messages', querySession: 'L1' })], [])).status,
    ).toBe('n/a');
    // Streamable only, a stream cut and resumed at /mcp.
    const init = request(1, 1, { messages: [{ method: 'initialize', id: 0 }] });
    const session: WireEntry = { kind: 'response', at: 2, exchange: 1, status: 200, sessionId: 'S1', stream: false, messages: [] };
    const streamed = request(3, 2, { sessionId: 'S1' });
    const cut: WireEntry = { kind: 'end', at: 4, exchange: 2, cut: true };
    expect(judge(history([init, session, streamed, cut, request(5, 3, { method: 'GET', sessionId: 'S1', lastEventId: 'e1' })], [])).status).toBe('n/a');
    // Requests at both transports' endpoints: judged.
    expect(judge(history([init, session, request(3, 2, { method: 'GET', path: '/sse' }), endpoint], [])).status).toBe('pass');
  });

  it("delivers-exactly-once: a duplicate under a server's deliberate inclusive replay says so, and what the client's rule is", () => {
    const judge = clientJudges['client-delivers-exactly-once'];
    const twice = [call, note(2, 1), note(3, 1), note(4, 2), resolved(5)];
    const inclusive = judge({ ...history([sentResult(0)], twice), serverReplay: 'inclusive' });
    expect(inclusive).toMatchObject({ status: 'fail', at: 3 });
    const reason = inclusive.status === 'fail' ? inclusive.reason : '';
    expect(reason).toMatch(
      /^call 1 \(emit "a"\): notification seq 1 reached the application 2 times; in this scenario the server replays from the cursor inclusive/,
    );
    expect(reason).toMatch(/departure from the spec's "after the last event ID" the scenario makes on purpose/);
    expect(reason).toMatch(/The spec puts no duty on the client to drop the copy; this project's rule \(POLICY\)/);
    // Against a server that replays as the spec says, nothing about the server is claimed.
    const plain = judge(history([sentResult(0)], twice));
    expect(plain.status === 'fail' ? plain.reason : '').not.toMatch(/inclusive/);
  });

  it('no-silent-resend: two accepted sends of one call fail; a refused first send does not count', () => {
    const judge = clientJudges['client-no-silent-resend'];
    const send = (at: number, exchange: number): WireEntry =>
      request(at, exchange, { messages: [{ method: 'tools/call', id: exchange, params: { name: 'emit', arguments: { label: 'a', count: 2 } } }] });
    const answer = (at: number, exchange: number, status: number): WireEntry => ({ kind: 'response', at, exchange, status, stream: true, messages: [] });
    expect(judge(history([send(2, 1), answer(3, 1, 404), send(4, 2), answer(5, 2, 200)], [call])).status).toBe('pass');
    expect(judge(history([send(2, 1), answer(3, 1, 200), send(4, 2), answer(5, 2, 200)], [call]))).toMatchObject({ status: 'fail', at: 4 });
  });

  it('bounded-wait: a pending call fails', () => {
    const judge = clientJudges['client-bounded-wait'];
    expect(judge(history([], [call, resolved(2)])).status).toBe('pass');
    expect(judge(history([], [call, { kind: 'settled', at: 2, call: 1, outcome: 'pending' }]))).toMatchObject({ status: 'fail' });
  });
});
