/** The fault-injecting proxy on its own: what it forwards, records and withholds, driven by plain fetch. */
import { afterEach, describe, expect, it } from 'vitest';
import type { WireEntry } from '../../properties/client/history.js';
import type { Fault } from '../../src/check-client/faults.js';
import { Clock, startProxy, type WireProxy } from '../../src/check-client/proxy.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

let server: ReferenceServer | undefined;
let proxy: WireProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = server = undefined;
});

async function setUp(faults: Fault[]): Promise<{ wire: WireEntry[]; url: string }> {
  server = await createReferenceServer();
  const wire: WireEntry[] = [];
  proxy = await startProxy({ upstream: server.url, faults, clock: new Clock(), wire, applicationHas: async () => true });
  return { wire, url: `${proxy.url}/mcp` };
}

const json = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };

async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

async function call(url: string, session: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...json, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'p', count: 2 } } }),
  });
  return response.text();
}

describe('client-check proxy', () => {
  it('forwards and records every frame; withholding priming drops exactly the priming event', async () => {
    const { wire, url } = await setUp([{ kind: 'withholdPriming' }]);
    const session = await initialize(url);
    const body = await call(url, session);
    const frames = wire.filter((e) => e.kind === 'frame');
    expect(frames.map((f) => (f.kind === 'frame' ? (f.message?.method ?? `response ${String(f.message?.id)}`) : ''))).toEqual([
      'notifications/message',
      'notifications/message',
      'response 2',
    ]);
    expect(wire.some((e) => e.kind === 'fault' && e.fault === 'withhold-priming')).toBe(true);
    expect(body.split('\n\n').filter((f) => f.trim() !== '')).toHaveLength(3);
  });

  it('answers a resume with a chosen status (200: a quiet stream held open) without reaching the server', async () => {
    const { wire, url } = await setUp([{ kind: 'answer', on: { method: 'GET', resume: true }, status: 200 }]);
    const session = await initialize(url);
    const controller = new AbortController();
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': 'nowhere' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await Promise.race([reader.read().then(() => 'data'), new Promise((r) => setTimeout(() => r('quiet'), 200))]);
    expect(first).toBe('quiet');
    controller.abort();
    expect(server!.sessions.get(session)!.context.resumes).toEqual([]);
    expect(wire.some((e) => e.kind === 'fault' && e.fault === 'answer')).toBe(true);
  });

  it('expires a session with a real DELETE at the server, after which the server answers 404', async () => {
    const { wire, url } = await setUp([{ kind: 'expire', after: { rpc: 'tools/call', nth: 1 } }]);
    const session = await initialize(url);
    await call(url, session);
    expect(server!.sessions.get(session)!.state).toBe('terminated');
    const again = await fetch(url, {
      method: 'POST',
      headers: { ...json, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
    });
    await again.text();
    expect(again.status).toBe(404);
    expect(wire.filter((e) => e.kind === 'fault').map((e) => (e.kind === 'fault' ? e.fault : ''))).toEqual(['expire']);
  });

  it('an undrained cut delivers the last frame and then fails the body', async () => {
    const { url } = await setUp([{ kind: 'cut', on: { rpc: 'tools/call' }, frames: 2, undrained: true }]);
    const session = await initialize(url);
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...json, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'u', count: 2 } } }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const error = await (async () => {
      for (;;) {
        try {
          const { value, done } = await reader.read();
          if (done) return undefined;
          text += value;
        } catch (e) {
          return e;
        }
      }
    })();
    expect(error).toBeDefined();
    expect(text).toContain('"seq":1');
    expect(text).not.toContain('"seq":2');
  });
});
