/**
 * The fixture tools (see src/fixtures/core.ts) for a replica: the same tools as
 * src/fixtures/index.ts registers, but each execution is counted in Redis (`INCR`), so a
 * result says how often the tool ran with its label on any replica, not on this one.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { createClient } from 'redis';
import * as z from 'zod/v4';
import { FIXTURE_DESCRIPTIONS, MAX_EMIT_COUNT, emitResult, executionKey, fixtureNotifications, sessionInfoResult } from '../../src/fixtures/core.js';

const emitArgs = {
  label: z.string().describe('Tag carried by every notification and the result'),
  count: z.number().int().min(0).max(MAX_EMIT_COUNT).describe('How many notifications to send'),
};

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Registers `emit`, `emit_unsolicited` and `session_info` on `server`, counting executions in Redis.
 *
 * @param server - a fresh McpServer declaring the `logging` capability
 * @param redis - the shared Redis client
 */
export function registerReplicaFixtures(server: McpServer, redis: ReturnType<typeof createClient>): void {
  const negotiated = observeNegotiatedProtocolVersion(server);
  const count = (tool: 'emit' | 'emit_unsolicited', label: string): Promise<number> => redis.incr(`mcp:executions:${executionKey(tool, label)}`);

  server.registerTool('emit', { description: FIXTURE_DESCRIPTIONS.emit, inputSchema: emitArgs }, async ({ label, count: n }, extra) => {
    const executions = await count('emit', label);
    for (const notification of fixtureNotifications(label, n)) await extra.sendNotification(notification);
    return emitResult(label, executions);
  });
  server.registerTool('emit_unsolicited', { description: FIXTURE_DESCRIPTIONS.emit_unsolicited, inputSchema: emitArgs }, async ({ label, count: n }) => {
    const executions = await count('emit_unsolicited', label);
    for (const notification of fixtureNotifications(label, n)) await server.server.notification(notification);
    return emitResult(label, executions);
  });
  server.registerTool('session_info', { description: FIXTURE_DESCRIPTIONS.session_info }, async () =>
    sessionInfoResult(negotiated(), server.server.getClientCapabilities()),
  );
}

/** The protocol version this server answered `initialize` with (the SDK keeps no copy of it). */
function observeNegotiatedProtocolVersion(server: McpServer): () => string | undefined {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const original = handlers?.get('initialize');
  if (!handlers || !original) throw new Error('@modelcontextprotocol/sdk internals changed: no initialize handler to observe');
  let version: string | undefined;
  handlers.set('initialize', async (request, extra) => {
    const result = await original(request, extra);
    const answered = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof answered === 'string') version = answered;
    return result;
  });
  return () => version;
}
