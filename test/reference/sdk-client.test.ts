/**
 * The official SDK client (1.32.2) against the reference server over a real socket, under both
 * transports: the handshake, the tool list, `emit` with its notifications, and `session_info`
 * echoing the capabilities the client declared.
 */
import { CallToolResultSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { connectSdk, fixtureText, startServer, until, useCleanup, withBound } from './helpers.js';

useCleanup();

const CAPABILITIES = { roots: { listChanged: true }, sampling: {} };

describe.each(['streamable', 'sse'] as const)('SDK client over %s', (kind) => {
  test('lists the tools, receives emit notifications and result, and reads its capabilities back', async () => {
    const server = await startServer();
    const { client, notifications } = await connectSdk(server.url, kind, CAPABILITIES);

    expect(client.getServerCapabilities()).toEqual({ tools: {}, logging: {} });
    const { tools } = await withBound(client.listTools(), 'tools/list');
    expect(tools.map((t) => t.name)).toEqual(['emit', 'emit_unsolicited', 'session_info']);
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', required: ['label', 'count'] });

    const emitted = await withBound(client.callTool({ name: 'emit', arguments: { label: kind, count: 5 } }), 'emit');
    expect(fixtureText(emitted)).toEqual({ label: kind, executions: 1 });
    // Related notifications travel before the result on the same stream, so they are all in.
    expect(await notifications(kind, 5)).toEqual([1, 2, 3, 4, 5]);

    const again = await withBound(client.callTool({ name: 'emit', arguments: { label: kind, count: 0 } }), 'emit again');
    expect(fixtureText(again)).toEqual({ label: kind, executions: 2 });

    const info = await withBound(client.callTool({ name: 'session_info', arguments: {} }), 'session_info');
    expect(fixtureText(info)).toEqual({ protocolVersion: LATEST_PROTOCOL_VERSION, clientCapabilities: CAPABILITIES });

    const bad = await withBound(
      client.request({ method: 'tools/call', params: { name: 'emit', arguments: { label: 'x', count: 1001 } } }, CallToolResultSchema).then(
        () => 'resolved',
        (error: { code?: number }) => error.code,
      ),
      'emit with a bad count',
    );
    expect(bad).toBe(-32602);
    expect(server.internalErrors).toEqual([]);
  });

  test('emit_unsolicited reaches the client (standalone stream / the one legacy stream)', async () => {
    const server = await startServer();
    const { client, notifications } = await connectSdk(server.url, kind);
    // The SDK opens the standalone GET after `notifications/initialized`; wait until the server holds it.
    const session = [...server.sessions.values()][0]!;
    await until(() => session.context.streams.some((s) => s.kind !== 'request' && s.connected), 'the server-to-client stream');
    const label = `unsolicited-${kind}`;
    const result = await withBound(client.callTool({ name: 'emit_unsolicited', arguments: { label, count: 3 } }), 'emit_unsolicited');
    expect(fixtureText(result)).toEqual({ label, executions: 1 });
    expect(await notifications(label, 3)).toEqual([1, 2, 3]);
  });
});
