/** Small JSON-RPC 2.0 helpers; messages from the wire are never trusted to be well formed. */
import type { JsonRpcMessage } from '../../properties/history.js';

/** A JSON-RPC request or notification to send. */
export interface OutgoingMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method: string;
  params?: unknown;
}

/** Builds a request (with `id`) or a notification (without). */
export function message(method: string, params: unknown, id?: number | string): OutgoingMessage {
  const m: OutgoingMessage = { jsonrpc: '2.0', method };
  if (id !== undefined) m.id = id;
  if (params !== undefined) m.params = params;
  return m;
}

/** True when `m` is a response (result or error) to the request with `id`. */
export function isResponseTo(m: JsonRpcMessage | undefined, id: number | string): m is JsonRpcMessage {
  return m !== undefined && m.id === id && m.method === undefined && ('result' in m || 'error' in m);
}

/** Finds the response to `id` in a parsed JSON body (one message or a batch). */
export function findResponse(json: unknown, id: number | string): JsonRpcMessage | undefined {
  if (Array.isArray(json)) {
    for (const m of json) if (isObject(m) && isResponseTo(m as JsonRpcMessage, id)) return m as JsonRpcMessage;
    return undefined;
  }
  return isObject(json) && isResponseTo(json as JsonRpcMessage, id) ? (json as JsonRpcMessage) : undefined;
}

/** The text of the first `text` content item of a `tools/call` result, if any. */
export function toolText(m: JsonRpcMessage | undefined): string | undefined {
  const result = m?.result as { content?: unknown } | undefined;
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  for (const c of result.content) {
    if (isObject(c) && (c as { type?: unknown }).type === 'text' && typeof (c as { text?: unknown }).text === 'string') {
      return (c as { text: string }).text;
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
