/**
 * A server without the fixture tools (the official SDK, streamable HTTP only, no tools at all):
 * the suite still runs on what every MCP server answers, judges what that allows, and says
 * `skip` with the reason for what needs a fixture or the other transport.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, expect, test } from 'vitest';
import { renderText } from '../../src/report/text.js';
import { runSuite } from '../../src/check-server/run-suite.js';

let server: http.Server | undefined;
const transports = new Map<string, StreamableHTTPServerTransport>();

afterEach(async () => {
  for (const t of transports.values()) await t.close();
  transports.clear();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function startBareSdk(): Promise<string> {
  server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: unknown;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(typeof sid === 'string' ? 404 : 400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          eventStore: new InMemoryEventStore(),
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        created.onclose = () => created.sessionId && transports.delete(created.sessionId);
        await new McpServer({ name: 'bare', version: '1.0.0' }).connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

test('no fixture tools, one transport: the suite runs, judges what it can, skips the rest with reasons', async () => {
  const url = await startBareSdk();
  const report = await runSuite({ name: 'bare SDK', url }, { runs: 10, seed: 5, timeoutMs: 3000 });
  expect(report.abilities).toMatchObject({ transports: ['streamable'], fixtures: { emit: false, emitUnsolicited: false, sessionInfo: false } });
  const status = Object.fromEntries(report.properties.map((p) => [p.id, p]));
  // Needs a fixture: never passed unobserved.
  expect(status['capabilities-honoured']!.status).toBe('skip');
  expect(status['capabilities-honoured']!.reason).toMatch(/session_info/);
  expect(status['at-most-once-effect']!.status).toBe('skip');
  expect(status['at-most-once-effect']!.reason).toMatch(/fixture/);
  // Needs the other transport.
  expect(status['no-cross-transport-resume']!.status).toBe('skip');
  // What initialize, ping and tools/list allow is judged.
  for (const id of [
    'session-ids-visible-ascii',
    'session-ids-unguessable',
    'terminated-session-404',
    'event-ids-unique',
    'unknown-cursor-rejected',
    'no-silent-stall',
  ] as const) {
    expect(['pass', 'fail'], `${id}: ${status[id]!.reason}`).toContain(status[id]!.status);
  }
  // A lost ping response is resumed: the SDK replays after the priming event.
  expect(status['no-silent-loss']!.runs).toBeGreaterThan(0);
  // Traces name the request actually sent: a ping in place of each model call.
  const steps = report.properties.flatMap((p) => p.counterexample?.steps ?? []).concat((report.divergences ?? []).flatMap((d) => [...d.steps, d.step]));
  expect(steps.filter((s) => s.kind === 'call')).toEqual([]);
  expect(steps.some((s) => s.kind === 'ping' && /in place of call c\d/.test(s.detail ?? ''))).toBe(true);
  expect(renderText(report)).not.toMatch(/calls emit/);
}, 60_000);
