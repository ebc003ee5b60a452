/** The proxy's parts on their own: SSE re-framing across chunks, and which faults a request is under. */
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/check-client/faults.js';
import { FaultRouter } from '../../src/check-client/proxy/fault-plan.js';
import { frameSplitter, type SseFrame } from '../../src/check-client/proxy/sse-frames.js';

describe('frameSplitter', () => {
  it('yields each complete frame once, in order, whatever the chunking and line ends', () => {
    const frames: SseFrame[] = [];
    const feed = frameSplitter((f) => frames.push(f));
    for (const chunk of [
      'id: e1\ndata: ',
      '{"a":1}\n',
      '\n: comment\n\r\n',
      'id: e2\r\nevent: endpoint\r\ndata: /messages?sessionId=s%201\r\n',
      '\r\nid: e3\n',
    ])
      feed(chunk);
    expect(frames.map(({ id, event, data }) => ({ id, event, data }))).toEqual([
      { id: 'e1', event: undefined, data: '{"a":1}' },
      // A comment-only frame is a frame with no fields: forwarded as the server wrote it.
      { id: undefined, event: undefined, data: '' },
      { id: 'e2', event: 'endpoint', data: '/messages?sessionId=s%201' },
    ]);
    // The last frame is not complete yet.
    expect(frames.map((f) => f.raw)).not.toContain('id: e3');
  });
});

describe('FaultRouter', () => {
  const post = { method: 'POST', path: '/mcp', rpc: 'tools/call' };

  it('counts every matching request: nth picks one occurrence, and each fault counts on its own', () => {
    const second: Fault = { kind: 'cut', on: { method: 'POST', rpc: 'tools/call', nth: 2 }, frames: 1 };
    const every: Fault = { kind: 'delay', on: { method: 'POST' }, frame: 1, ms: 5 };
    const router = new FaultRouter([second, every, { kind: 'withholdPriming' }]);
    const first = router.plan(post);
    expect(first).toEqual({ delays: [every], expire: false, withholdPriming: true });
    expect(router.plan({ method: 'POST', path: '/mcp', rpc: 'initialize' }).cut).toBeUndefined();
    expect(router.plan(post)).toEqual({ cut: second, delays: [every], expire: false, withholdPriming: true });
    expect(router.plan(post).cut).toBeUndefined();
    expect(router.plan({ method: 'GET', path: '/sse' })).toEqual({ delays: [], expire: false, withholdPriming: false });
  });

  it('tells a resume, and a session the legacy transport announced', () => {
    const answer: Fault = { kind: 'answer', on: { method: 'GET', resume: true, legacySession: true }, status: 404 };
    const router = new FaultRouter([answer, { kind: 'expire', after: { method: 'DELETE' } }]);
    const resume = { method: 'GET', path: '/mcp', lastEventId: 'e1', sessionId: 's 1' };
    expect(router.plan(resume).answer).toBeUndefined();
    router.noteEndpoint('/messages?sessionId=s%201');
    expect(router.plan(resume).answer).toBe(answer);
    expect(router.plan({ ...resume, lastEventId: undefined }).answer).toBeUndefined();
    expect(router.plan({ method: 'DELETE', path: '/mcp' }).expire).toBe(true);
  });
});
