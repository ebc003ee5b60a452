/**
 * The fixture tools registered on an `McpServer` of @modelcontextprotocol/sdk 1.x.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod/v4';
import {
  MAX_EMIT_COUNT,
  countExecution,
  FIXTURE_DESCRIPTIONS,
  emitResult,
  fixtureNotifications,
  sessionInfoResult,
} from './fixture-core.js';

/** Argument shape of `emit` and `emit_unsolicited`; a raw zod v4 shape, as SDK 1.32's own examples pass it. */
const emitArgs = {
  label: z.string().describe('Tag carried by every notification and the result'),
  count: z.number().int().min(0).max(MAX_EMIT_COUNT).describe('How many notifications to send'),
};

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Registers `emit`, `emit_unsolicited` and `session_info` on `server`.
 *
 * Call once per `McpServer`, before `connect()`. The server must declare the
 * `logging` capability, because SDK 1.x refuses to send `notifications/message`
 * otherwise. `emit` and `emit_unsolicited` keep separate counters (see
 * `executionKey`).
 *
 * @param server - a fresh SDK 1.x `McpServer` (one per session)
 * @param executions - per-process execution counters, shared by all sessions of the candidate
 * @throws Error if the SDK's internals no longer allow observing the initialize result
 */
export function registerFixtureTools(server: McpServer, executions: Map<string, number>): void {
  const negotiated = observeNegotiatedProtocolVersion(server);

  server.registerTool(
    'emit',
    {
      description: FIXTURE_DESCRIPTIONS.emit,
      inputSchema: emitArgs,
    },
    async ({ label, count }, extra) => {
      const executionsSoFar = countExecution(executions, 'emit', label);
      // extra.sendNotification tags each message with this request's id, which is
      // what routes it onto the request's own POST stream under streamable HTTP.
      for (const notification of fixtureNotifications(label, count)) await extra.sendNotification(notification);
      return emitResult(label, executionsSoFar);
    },
  );

  server.registerTool(
    'emit_unsolicited',
    {
      description: FIXTURE_DESCRIPTIONS.emit_unsolicited,
      inputSchema: emitArgs,
    },
    async ({ label, count }) => {
      const executionsSoFar = countExecution(executions, 'emit_unsolicited', label);
      // Protocol.notification without relatedRequestId: the transport sends it on
      // the standalone GET stream (or stores it for replay when none is open).
      for (const notification of fixtureNotifications(label, count)) await server.server.notification(notification);
      return emitResult(label, executionsSoFar);
    },
  );

  server.registerTool(
    'session_info',
    { description: FIXTURE_DESCRIPTIONS.session_info },
    async () => sessionInfoResult(negotiated(), server.server.getClientCapabilities()),
  );
}

/**
 * Records the protocol version the server answers `initialize` with.
 *
 * SDK 1.x stores the client's capabilities but not the negotiated version (it
 * only computes it while answering), so the only faithful source is the
 * initialize result itself. The handler map is private; it is wrapped, not
 * replaced, so the SDK's own negotiation still runs unchanged.
 *
 * @param server - the McpServer whose initialize answers are observed
 * @returns a getter for the last negotiated version (undefined before initialize)
 */
function observeNegotiatedProtocolVersion(server: McpServer): () => string | undefined {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawHandler> })._requestHandlers;
  const original = handlers?.get('initialize');
  if (!handlers || !original) {
    throw new Error('@modelcontextprotocol/sdk internals changed: no initialize handler to observe');
  }
  let version: string | undefined;
  handlers.set('initialize', async (request, extra) => {
    const result = await original(request, extra);
    const answered = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof answered === 'string') version = answered;
    return result;
  });
  return () => version;
}
