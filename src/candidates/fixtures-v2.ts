/**
 * The fixture tools registered on an `McpServer` of the 2.x SDK packages
 * (`@modelcontextprotocol/server`), which mcp-proxy 6.7 builds on.
 *
 * `@modelcontextprotocol/server` is not a direct dependency of this project: it
 * is the copy mcp-proxy depends on, and it must be that very copy, because
 * mcp-proxy checks `instanceof McpServer` against it.
 */
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import {
  MAX_EMIT_COUNT,
  countExecution,
  FIXTURE_DESCRIPTIONS,
  emitResult,
  fixtureNotifications,
  sessionInfoResult,
} from './fixture-core.js';

/** Argument schema of `emit` and `emit_unsolicited`; SDK 2.x wants a full (standard) schema, not a raw shape. */
const emitArgs = z.object({
  label: z.string().describe('Tag carried by every notification and the result'),
  count: z.number().int().min(0).max(MAX_EMIT_COUNT).describe('How many notifications to send'),
});

/**
 * Builds an SDK 2.x `McpServer` with the `logging` capability and the fixture tools.
 *
 * @param info - the server's name and version as announced in `initialize`
 * @param executions - per-process execution counters, shared by all sessions of the candidate
 * @returns a server ready to `connect()`
 */
export function createFixtureServerV2(info: { name: string; version: string }, executions: Map<string, number>): McpServer {
  const server = new McpServer(info, { capabilities: { logging: {} } });
  registerFixtureToolsV2(server, executions);
  return server;
}

/**
 * Registers `emit`, `emit_unsolicited` and `session_info` on an SDK 2.x `McpServer`.
 *
 * Same behaviour as `registerFixtureTools` for SDK 1.x; the server must declare
 * the `logging` capability.
 *
 * @param server - a fresh SDK 2.x `McpServer` (one per session)
 * @param executions - per-process execution counters, shared by all sessions of the candidate
 */
export function registerFixtureToolsV2(server: McpServer, executions: Map<string, number>): void {
  server.registerTool(
    'emit',
    {
      description: FIXTURE_DESCRIPTIONS.emit,
      inputSchema: emitArgs,
    },
    async ({ label, count }, ctx) => {
      const executionsSoFar = countExecution(executions, 'emit', label);
      // ctx.mcpReq.notify relates each message to this request, so streamable HTTP
      // sends it on the request's POST stream.
      for (const notification of fixtureNotifications(label, count)) await ctx.mcpReq.notify(notification);
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
      for (const notification of fixtureNotifications(label, count)) await server.server.notification(notification);
      return emitResult(label, executionsSoFar);
    },
  );

  server.registerTool(
    'session_info',
    { description: FIXTURE_DESCRIPTIONS.session_info },
    async () =>
      // Both accessors are deprecated in 2.x in favour of the per-request envelope of
      // 2026-07-28, but on 2025-era sessions they return the initialize-scoped values,
      // which is exactly what the contract asks for.
      sessionInfoResult(server.server.getNegotiatedProtocolVersion(), server.server.getClientCapabilities()),
  );
}
