/**
 * A trace step as data: what was done (kind, actor, transport, stream, request, cursor) and what
 * came back (status, frames, event IDs), for the model's own traces and for the suite's runs
 * against a candidate alike. Sentences are rendered from these values at the edge
 * (`trace-text.ts`) and never parsed back: diagrams and root-cause grouping read the fields.
 */
import type { ResumeCursor } from './world-types.js';
import type { Transport } from './transport.js';

/** What a step does, in the protocol's words. */
export type StepKind =
  | 'initialize'
  | 'call'
  | 'ping'
  | 'send'
  | 'receive'
  | 'drain'
  | 'drop'
  | 'resume'
  | 'timeout'
  | 'delete'
  /** The server's idle timer ends the session (policy `sessionExpiry`). */
  | 'expire'
  /** The server's log retention drops the session's oldest retained event (policy `logRetention`). */
  | 'trim';

/** Who acts: the client's transport, the server, the connection, or the application above the client. */
export type StepActor = 'client' | 'server' | 'connection' | 'application';

/** A frame: its event ID and, where known, the message it carries. */
export interface FrameRef {
  /** The SSE event ID (the model's own in model traces, the candidate's in candidate runs). */
  id?: string;
  /** A stream's opening event with no message: `endpoint` (legacy) or `priming`. */
  opening?: 'endpoint' | 'priming';
  /** The tool call the message belongs to (`c1`...). */
  call?: string;
  /** Notification number (1..); 0 for the call's result. */
  seq?: number;
}

/** An answer: the model's (its expectation) or the candidate's. Every field is optional. */
export interface StepAnswer {
  /** HTTP status. */
  status?: number;
  /** Why a request was refused, in the model's words, without event IDs. */
  reason?: string;
  /** The session ID an initialize was given. */
  sessionId?: string;
  /** Frames written, replayed, received or drained. */
  frames?: FrameRef[];
  /** A resume answered with a stream: `replay` lists what it replayed, `quiet` that it replayed nothing yet. */
  stream?: 'replay' | 'quiet';
  /** A sent frame went to the event log only (no connection carried it). */
  logOnly?: boolean;
  /** A drained frame was discarded by the client's dedup. */
  duplicate?: boolean;
  /** A drain found nothing to process. */
  nothing?: boolean;
  /** Frames a drop cost on the client side. */
  lost?: { undrained: number; inFlight: number };
  /** A resume over the legacy transport was answered with a fresh legacy session (a refusal). */
  newSession?: boolean;
  /** No HTTP answer: a transport error or a timeout, in the client's words. */
  error?: string;
  /** Data of a frame that matched nothing the model expects (first 160 characters). */
  data?: string;
  /** The model expected one of its frames: which. */
  frame?: FrameRef;
  /** The model expected a connection or a frame that is not there. */
  missing?: 'connection' | 'frame' | 'cursor';
  /** A call answered with a JSON body, where the model's answer is a stream (which the spec allows either way); a body that is not JSON is not one. */
  jsonBody?: boolean;
  /** The stream a call's answer opens, where the model's answer is a stream (the expectation beside a `jsonBody` answer). */
  opens?: string;
}

/** The cursor a step presented as `Last-Event-ID`. */
export interface PresentedCursor {
  /** The value sent; `null` when the client had none to send. */
  value: string | null;
  /** Whose cursor it is: the stream's own, a made-up one, or one from an earlier session. */
  origin: ResumeCursor;
}

/** One step of a trace. */
export interface TraceStepData {
  /** 1-based position in the trace. */
  index: number;
  kind: StepKind;
  actor: StepActor;
  /** The transport the step uses (for a migration, the one it moves to). */
  transport?: Transport;
  /** The model's stream ID the step is about. */
  stream?: string;
  /** The tool call label (`c1`...) a call or timeout is about. */
  call?: string;
  /** The JSON-RPC request a timeout is about, as the model names it. */
  request?: string;
  /** The tool a call invokes. */
  tool?: 'emit' | 'emit_unsolicited' | 'session_info';
  /** Notifications a call asks for, where the step says so. */
  notifications?: number;
  /** An initialize that replaces a session the client held. */
  reinitialize?: boolean;
  /** A resume that moves to the other transport. */
  migrate?: boolean;
  /** A resume or request that presents a session other than the client's own. */
  session?: 'own' | 'other' | 'deleted';
  /** The `Last-Event-ID` presented. */
  cursor?: PresentedCursor;
  /** For a drop: frames in flight or undrained the model says are lost. */
  lost?: number;
  /** For a timeout: whether the client retries the call. */
  retries?: boolean;
  /** A qualifier of a deterministic probe's step that the fields above cannot say (how much it reads). */
  detail?: string;
  /** What came back: the model's answer in model traces, the candidate's in candidate runs. */
  answer: StepAnswer;
  /** In candidate runs, present when the candidate's answer is not one the model allows: the model's. */
  expected?: StepAnswer;
}

/** A step where the candidate left the model. */
export function diverged(step: TraceStepData): step is TraceStepData & { expected: StepAnswer } {
  return step.expected !== undefined;
}
