/**
 * The fixture tools of the candidate contract (docs/contract.md), independent of any SDK
 * version: names, argument bounds, the notifications `emit` sends and the texts the tools
 * return. The SDK-specific modules (`fixtures.ts` for SDK 1.x, `fixtures-v2.ts` for SDK 2.x)
 * only wire these into a server.
 */

/** What `tools/list` says of each fixture tool (the same text in every SDK's registration). */
export const FIXTURE_DESCRIPTIONS: Record<FixtureTool, string> = {
  emit: 'Sends `count` logging notifications related to this request, then returns how often it ran with `label`.',
  emit_unsolicited: 'Sends `count` logging notifications not related to any request (the standalone GET stream), then returns how often it ran with `label`.',
  session_info: 'Returns the protocol version and client capabilities this session was initialized with.',
};

/** The three fixture tool names. */
export const FIXTURE_TOOLS = ['emit', 'emit_unsolicited', 'session_info'] as const;

/** A fixture tool name. */
export type FixtureTool = (typeof FIXTURE_TOOLS)[number];

/** Upper bound of `count`, inclusive, as the contract fixes it. */
export const MAX_EMIT_COUNT = 1000;

/** The `notifications/message` a fixture sends for one `seq`. */
export interface FixtureNotification {
  method: 'notifications/message';
  params: { level: 'info'; data: { label: string; seq: number } };
}

/**
 * Key of the execution counter for one tool and label.
 *
 * `emit` and `emit_unsolicited` count separately: each result reports how often
 * *that* tool ran with the label, so a checker exercising one tool is never
 * disturbed by calls of the other.
 *
 * @param tool - `emit` or `emit_unsolicited`
 * @param label - the `label` argument
 * @returns the key used in the executions map
 */
export function executionKey(tool: 'emit' | 'emit_unsolicited', label: string): string {
  return `${tool}\u0000${label}`;
}

/**
 * Counts one execution of `tool` with `label` and returns the new count.
 *
 * Called when the handler starts, before any notification is sent, so a call
 * that is interrupted half-way still counts as an execution (its side effect
 * has begun).
 *
 * @param executions - the per-process counters shared by every session
 * @param tool - `emit` or `emit_unsolicited`
 * @param label - the `label` argument
 * @returns how many times this tool has run with this label, this call included
 */
export function countExecution(
  executions: Map<string, number>,
  tool: 'emit' | 'emit_unsolicited',
  label: string,
): number {
  const key = executionKey(tool, label);
  const next = (executions.get(key) ?? 0) + 1;
  executions.set(key, next);
  return next;
}

/**
 * The notifications an `emit` or `emit_unsolicited` call sends, in order.
 *
 * @param label - the `label` argument
 * @param count - the `count` argument (0..1000)
 * @returns `count` notifications with seq 1..count
 */
export function fixtureNotifications(label: string, count: number): FixtureNotification[] {
  return Array.from({ length: count }, (_, i) => ({
    method: 'notifications/message' as const,
    params: { level: 'info' as const, data: { label, seq: i + 1 } },
  }));
}

/** A tool result carrying one text block, as the fixtures return it. */
export interface TextResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
}

/**
 * The result of `emit` and `emit_unsolicited`.
 *
 * @param label - the `label` argument
 * @param executions - the count `countExecution` returned for this call
 * @returns `{content: [{type: "text", text: JSON.stringify({label, executions})}]}`
 */
export function emitResult(label: string, executions: number): TextResult {
  return { content: [{ type: 'text', text: JSON.stringify({ label, executions }) }] };
}

/**
 * The result of `session_info`.
 *
 * `undefined` values are kept as `null` so the checker can tell "the server holds
 * nothing" from a missing field.
 *
 * @param protocolVersion - the protocol version the server negotiated for this session
 * @param clientCapabilities - the capabilities the client declared in this session's initialize
 * @returns `{content: [{type: "text", text: JSON.stringify({protocolVersion, clientCapabilities})}]}`
 */
export function sessionInfoResult(protocolVersion: string | undefined, clientCapabilities: unknown): TextResult {
  return {
    content: [
      {
        type: 'text',
        text: JSON.stringify({ protocolVersion: protocolVersion ?? null, clientCapabilities: clientCapabilities ?? null }),
      },
    ],
  };
}
