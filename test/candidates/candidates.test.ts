import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { acceptsConnections, type RunningCandidate, type StartCandidate } from '../../src/check-server/candidates/adapter.js';
import startMcpProxy from '../../src/check-server/candidates/mcp-proxy.js';
import startSdk from '../../src/check-server/candidates/sdk.js';
import { CLIENT_CAPABILITIES, callFixture, connect, uniqueLabel, withBound, type Connected, type TransportKind } from './harness.js';

const candidates: Array<[string, StartCandidate]> = [
  ['@modelcontextprotocol/sdk', startSdk],
  ['mcp-proxy', startMcpProxy],
];

describe.each(candidates)('candidate %s', (expectedName, start) => {
  let running: RunningCandidate | undefined;
  const clients: Connected[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
    await running?.stop();
    running = undefined;
  });

  test('reports its name and installed version, on a loopback URL', async () => {
    running = await start();
    expect(running.name).toBe(expectedName);
    expect(running.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test.each<TransportKind>(['streamable', 'sse'])('serves the fixture tools over %s', async (kind) => {
    running = await start();
    const connected = await connect(running, kind);
    clients.push(connected);
    const { client } = connected;

    const { tools } = await withBound(client.listTools(), 'tools/list');
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['emit', 'emit_unsolicited', 'session_info']));

    const label = uniqueLabel(kind);
    expect(await callFixture(client, 'emit', { label, count: 3 })).toEqual({ label, executions: 1 });
    expect(await connected.waitForNotifications(label, 3)).toEqual([1, 2, 3]);
    expect(await callFixture(client, 'emit', { label, count: 3 })).toEqual({ label, executions: 2 });
    expect(await connected.waitForNotifications(label, 6)).toEqual([1, 2, 3, 1, 2, 3]);

    const info = (await callFixture(client, 'session_info', {})) as { protocolVersion: unknown; clientCapabilities: unknown };
    expect(info.clientCapabilities).toEqual(CLIENT_CAPABILITIES);
    // The client asks for the latest version it knows; both candidates support it, so that is what they negotiate.
    expect(info.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  test.each<TransportKind>(['streamable', 'sse'])('emit_unsolicited reaches the client over %s', async (kind) => {
    running = await start();
    const connected = await connect(running, kind);
    clients.push(connected);
    const label = uniqueLabel(`unsolicited-${kind}`);
    expect(await callFixture(connected.client, 'emit_unsolicited', { label, count: 2 })).toEqual({ label, executions: 1 });
    expect(await connected.waitForNotifications(label, 2)).toEqual([1, 2]);
  });

  test('counts executions per process, across sessions and transports', async () => {
    running = await start();
    const label = uniqueLabel('shared');
    const a = await connect(running, 'streamable');
    clients.push(a);
    const b = await connect(running, 'sse');
    clients.push(b);
    expect(await callFixture(a.client, 'emit', { label, count: 0 })).toEqual({ label, executions: 1 });
    expect(await callFixture(b.client, 'emit', { label, count: 0 })).toEqual({ label, executions: 2 });
    // emit_unsolicited keeps its own counter for the same label
    expect(await callFixture(b.client, 'emit_unsolicited', { label, count: 0 })).toEqual({ label, executions: 1 });
  });

  test('stop() with open streams resolves, frees the port, and can be called again', async () => {
    running = await start();
    const port = Number(new URL(running.url).port);
    clients.push(await connect(running, 'streamable'));
    clients.push(await connect(running, 'sse'));
    await withBound(running.stop(), 'stop with open streams');
    expect(await acceptsConnections(port)).toBe(false);
    await withBound(running.stop(), 'second stop');
    expect(await acceptsConnections(port)).toBe(false);
  });
});
