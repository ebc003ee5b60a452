/**
 * The checking client: drives candidate MCP servers over real HTTP (streamable HTTP and legacy
 * HTTP+SSE) with separate control of receive, drain and drop, recording a {@link History}.
 */
export {
  CheckClient,
  LATEST_STREAMABLE_VERSION,
  LEGACY_VERSION,
  describeAnswer,
  describeOutcome,
  type CallOptions,
  type CheckClientOptions,
  type DeleteOptions,
  type HeaderOverrides,
  type InitializeOptions,
  type InitializeOutcome,
  type LegacyOpenOutcome,
  type OpenLegacyOptions,
  type OpenStandaloneOptions,
  type RequestOptions,
  type ResumeOptions,
  type SessionState,
} from './client.js';
export { clientOwnedHeaders, extraHeaderProblem, parseExtraHeader } from './extra-headers.js';
export { SseStream, type StreamState } from './sse-stream.js';
export { HistoryRecorder, type EntryOf } from './history-recorder.js';
export { findResponse, isResponseTo, toolText } from './jsonrpc.js';
export type {
  Answer,
  AwaitResponseOptions,
  CursorAdvance,
  DrainResult,
  DropResult,
  FailureReason,
  Frame,
  Headers,
  ReceiveResult,
  RequestHandle,
  ResponseOutcome,
} from './types.js';
export type { History, HistoryEntry } from '../../properties/history.js';
