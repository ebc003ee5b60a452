/** The shapes of JSON-RPC 2.0 messages, as the reference server reads and writes them (`jsonrpc.ts` re-exports them). */

/** A request ID. MCP forbids `null` in requests; responses to unreadable requests carry `null`. */
export type JsonRpcId = string | number;

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Anything the server sends on a stream or in a body. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** A validated incoming message, by kind. */
export type Incoming =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  /** A client's answer to a server request (the server sends none, but a client may still post one). */
  | { kind: 'response'; message: JsonRpcResponse };
