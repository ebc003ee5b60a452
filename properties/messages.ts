/**
 * Reading JSON-RPC messages from the wire, which are never trusted to be well formed; and the
 * fixture tools' messages (the candidate contract, `src/fixtures/core.ts`), which properties judge by.
 */
import type { JsonRpcMessage } from './history.js';

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** True when `m` is a response (result or error) to the request with `id`. */
export function isResponseTo(m: JsonRpcMessage | undefined, id: number | string): m is JsonRpcMessage {
  return m !== undefined && m.id === id && m.method === undefined && ('result' in m || 'error' in m);
}

/** True when `m` is any response (it has an id, no method, and a result or an error). */
export function isResponse(m: JsonRpcMessage | undefined): m is JsonRpcMessage {
  return m !== undefined && m.method === undefined && m.id !== undefined && ('result' in m || 'error' in m);
}

/** The text of the first `text` content item of a `tools/call` result, if any. */
export function toolText(m: JsonRpcMessage | undefined): string | undefined {
  const result = m?.result as { content?: unknown } | undefined;
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  for (const c of result.content) {
    if (isObject(c) && c.type === 'text' && typeof c.text === 'string') return c.text;
  }
  return undefined;
}

/** The parsed JSON of a tool result's text, when it is a JSON object. */
export function toolJson(m: JsonRpcMessage | undefined): Record<string, unknown> | undefined {
  const text = toolText(m);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A fixture notification: `notifications/message` with `data: {label, seq}`. */
export function fixtureNotification(m: JsonRpcMessage | undefined): { label: string; seq: number } | undefined {
  if (m?.method !== 'notifications/message' || !isObject(m.params)) return undefined;
  const data = m.params.data;
  if (!isObject(data) || typeof data.label !== 'string' || typeof data.seq !== 'number') return undefined;
  return { label: data.label, seq: data.seq };
}
