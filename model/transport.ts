/**
 * The two MCP HTTP transports a migration window serves side by side.
 * - `sse`: legacy HTTP+SSE (protocol 2024-11-05): `GET /sse` opens the one stream, whose first
 *   event is `endpoint`; the client POSTs to `/messages?sessionId=...`.
 * - `streamable`: streamable HTTP (2025-03-26 to 2025-11-25): one endpoint `/mcp` for POST, GET
 *   and DELETE, `Mcp-Session-Id`, SSE `id:` fields, resume by GET with `Last-Event-ID`.
 */
export type Transport = 'sse' | 'streamable';

export const transports: readonly Transport[] = ['sse', 'streamable'];

/** The transport a migration moves to. */
export function otherTransport(transport: Transport): Transport {
  return transport === 'sse' ? 'streamable' : 'sse';
}
