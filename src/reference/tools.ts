/**
 * The fixture tools of the candidate contract (`src/fixtures/core.ts`), as pure computations: a call yields
 * the messages it would send and a `commit` that records its side effect. The server commits only
 * once the session machine has accepted the request, so a request the machine refuses (a foreign
 * transport, a terminated session) has no effect, and `executions` counts what was served.
 */
import { FIXTURE_TOOLS, MAX_EMIT_COUNT, emitResult, executionKey, fixtureNotifications, sessionInfoResult } from '../fixtures/core.js';
import { ErrorCode } from './http-errors.js';
import { isObject, notification, type JsonObject, type JsonRpcNotification } from './jsonrpc.js';

/** What `session_info` reports: the session as the machine's context holds it now. */
export interface SessionView {
  protocolVersion: string | null;
  capabilities: unknown;
}

/** A tool call, computed but not yet committed. */
export type ToolOutcome =
  | {
      kind: 'result';
      result: JsonObject;
      /** Notifications related to the request (its stream, or the legacy stream). */
      related: JsonRpcNotification[];
      /** Notifications related to no request (the standalone stream, or the legacy stream). */
      unrelated: JsonRpcNotification[];
      /** Records the call's side effect (its execution). */
      commit(): void;
    }
  | { kind: 'error'; code: number; message: string };

const emitSchema = {
  type: 'object',
  properties: {
    label: { type: 'string', description: 'Tag carried by every notification and the result' },
    count: { type: 'integer', minimum: 0, maximum: MAX_EMIT_COUNT, description: 'How many notifications to send' },
  },
  required: ['label', 'count'],
} as const;

/** The `tools/list` result. */
export const TOOL_LIST: JsonObject = Object.freeze({
  tools: [
    {
      name: 'emit',
      description: 'Sends `count` logging notifications related to this request, then returns how often it ran with `label`.',
      inputSchema: emitSchema,
    },
    {
      name: 'emit_unsolicited',
      description: 'Sends `count` logging notifications related to no request (the standalone stream), then returns how often it ran with `label`.',
      inputSchema: emitSchema,
    },
    {
      name: 'session_info',
      description: 'Returns the protocol version and client capabilities the server currently holds for this session.',
      inputSchema: { type: 'object', properties: {} },
    },
  ],
});

function invalidParams(message: string): ToolOutcome {
  return { kind: 'error', code: ErrorCode.InvalidParams, message: `Invalid params: ${message}` };
}

/**
 * Computes a `tools/call`.
 *
 * @param params - the request's params (validated here)
 * @param executions - per-server execution counters, keyed by `executionKey`
 * @param session - the session's current protocol version and capabilities
 */
export function callTool(params: JsonObject | undefined, executions: Map<string, number>, session: SessionView): ToolOutcome {
  if (params === undefined || typeof params.name !== 'string') return invalidParams('tools/call needs a tool name');
  const name = params.name;
  if (!(FIXTURE_TOOLS as readonly string[]).includes(name)) return invalidParams(`unknown tool ${JSON.stringify(name.slice(0, 64))}`);
  const args = params.arguments ?? {};
  if (!isObject(args)) return invalidParams('arguments must be an object');

  if (name === 'session_info') {
    return {
      kind: 'result',
      result: sessionInfoResult(session.protocolVersion ?? undefined, session.capabilities),
      related: [],
      unrelated: [],
      commit: () => {},
    };
  }

  const { label, count } = args;
  if (typeof label !== 'string') return invalidParams('label must be a string');
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > MAX_EMIT_COUNT) {
    return invalidParams(`count must be an integer from 0 to ${MAX_EMIT_COUNT}`);
  }
  const key = executionKey(name as 'emit' | 'emit_unsolicited', label);
  // The count this call will report; nothing runs between computing and committing it (the
  // server is single-threaded and the machine step in between is synchronous).
  const executionsIfServed = (executions.get(key) ?? 0) + 1;
  const notes = fixtureNotifications(label, count).map((n) => notification(n.method, n.params));
  return {
    kind: 'result',
    result: emitResult(label, executionsIfServed),
    related: name === 'emit' ? notes : [],
    unrelated: name === 'emit_unsolicited' ? notes : [],
    commit: () => void executions.set(key, executionsIfServed),
  };
}
