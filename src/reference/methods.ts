/**
 * MCP methods a session serves once initialized: the response to a request and the notifications
 * it produces, computed before the session machine is told about the request (the machine takes
 * the messages in its REQUEST event).
 */
import { ErrorCode } from './http-errors.js';
import { errorResponse, result, type JsonRpcMessage, type JsonRpcRequest } from './jsonrpc.js';
import { TOOL_LIST, callTool, type SessionView } from './tools.js';

/** The messages one request produces, and the side effect to record if the machine accepts it. */
export interface MethodOutcome {
  /** Related notifications, then the response: the request stream's messages, in order. */
  messages: JsonRpcMessage[];
  /** Notifications related to no request. */
  unrelated: JsonRpcMessage[];
  commit(): void;
}

const noEffect = (): void => {};

/**
 * Runs `request` (anything but `initialize`, which the routes handle with the session machine).
 * Unknown methods and bad tool arguments become JSON-RPC error responses on the request's stream,
 * like any other response.
 */
export function runMethod(request: JsonRpcRequest, executions: Map<string, number>, session: SessionView): MethodOutcome {
  const only = (response: JsonRpcMessage): MethodOutcome => ({ messages: [response], unrelated: [], commit: noEffect });
  switch (request.method) {
    case 'ping':
      return only(result(request.id, {}));
    case 'tools/list':
      return only(result(request.id, TOOL_LIST));
    case 'tools/call': {
      const outcome = callTool(request.params, executions, session);
      if (outcome.kind === 'error') return only(errorResponse(request.id, outcome.code, outcome.message));
      return {
        messages: [...outcome.related, result(request.id, outcome.result)],
        unrelated: outcome.unrelated,
        commit: outcome.commit,
      };
    }
    default:
      return only(errorResponse(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method.slice(0, 100)}`));
  }
}
