/**
 * The fixture tools registered on an `McpServer` of @modelcontextprotocol/sdk 1.x
 * (`mcp-resume-spec/fixtures`). The contract they implement: docs/contract.md.
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

export { FIXTURE_TOOLS, MAX_EMIT_COUNT, executionKey, type FixtureTool } from './fixture-core.js';

/** Argument shape of `emit` and `emit_unsolicited`; a raw zod v4 shape, as SDK 1.32's own examples pass it. */
const emitArgs = {
  label: z.string().describe('Tag carried by every notification and the result'),
  count: z.number().int().min(0).max(MAX_EMIT_COUNT).describe('How many notifications to send'),
};

type RawHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Execution counters of the fixture tools: `executionKey(tool, label)` to how often that tool
 * has run with that label.
 */
export type FixtureExecutions = Map<string, number>;

/** The counters used when none are passed: one per process, as the contract counts. */
const processExecutions: FixtureExecutions = new Map();

/**
 * Registers the fixture tools of the candidate contract (`emit`, `emit_unsolicited`,
 * `session_info`; docs/contract.md) on `server`, so that `mcp-resume-spec check` judges every
 * property against it.
 *
 * Call it on each `McpServer` before `connect()` (one server per session, as the SDK's examples
 * do). The server must declare the `logging` capability: SDK 1.x refuses to send
 * `notifications/message` otherwise. Executions are counted per process, across sessions and
 * both transports, `emit` and `emit_unsolicited` apart (see `executionKey`).
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'my-server', version: '1.0.0' }, { capabilities: { logging: {} } });
 * registerFixtureTools(server);
 * ```
 * A whole server on both transports, with an event store per session and the 404 for an
 * unplaceable cursor, checkable with `npx mcp-resume-spec check --url http://127.0.0.1:3000/mcp`:
 * `examples/sdk-server/server.ts` in the package (test/candidates/fixtures-example.test.ts runs it
 * and checks it with the suite).
 *
 * @param server - a fresh SDK 1.x `McpServer` (one per session)
 * @param executions - the counters to count in; default one map per process (a candidate
 *   adapter that is started several times in one process passes its own)
 * @returns the counters counted in
 * @throws Error if the SDK's internals no longer allow observing the initialize result
 */
export function registerFixtureTools(server: McpServer, executions: FixtureExecutions = processExecutions): FixtureExecutions {
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
  return executions;
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
