/**
 * The SDK (1.24+) stores a priming event, `{}`, at the head of each stream for clients of protocol
 * 2025-11-25 or later: it only gives the client a first cursor. It carries no message, so a replay
 * must not send it (the transport would write `data: {}`, which is no JSON-RPC message).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Whether `message` is the SDK's priming placeholder rather than a JSON-RPC message.
 *
 * @param message - what the transport passed to `storeEvent`
 * @returns true for the empty object the SDK stores as a priming event
 */
export function isPrimingMessage(message: JSONRPCMessage): boolean {
  return !('jsonrpc' in message);
}
