/**
 * Faults the checker injects between a client under test and the reference server: network and
 * wire events around the same machine, never a second semantics. Each names the exchanges it
 * applies to with a {@link Match}.
 */

/** Which client requests a fault applies to; every given field must match. */
export interface Match {
  method?: 'GET' | 'POST' | 'DELETE';
  path?: string;
  /** The JSON-RPC method of the request's first message (e.g. `tools/call`). */
  rpc?: string;
  /** A GET with (true) or without (false) `Last-Event-ID`. */
  resume?: boolean;
  /** Presents (at `/mcp`) a session the legacy transport issued. */
  legacySession?: boolean;
  /** Only the nth matching request, from 1 (default: every one). */
  nth?: number;
}

export type Fault =
  /**
   * Cut the answer's stream after `frames` frames were forwarded. `undrained: false` waits (bounded)
   * until the application has the last forwarded frame's message, then closes; `undrained: true`
   * writes the last frame and closes the connection in the same turn, before the client's
   * application can have processed it (the seed's "sent but undrained").
   */
  | { kind: 'cut'; on: Match; frames: number; undrained?: boolean }
  /** Hold frame number `frame` (from 1) of the answer for `ms` before forwarding it. */
  | { kind: 'delay'; on: Match; frame: number; ms: number }
  /** Answer the request with `status` instead of forwarding it (200 means a quiet SSE stream held open). */
  | { kind: 'answer'; on: Match; status: number }
  /** Drop priming events (an `id` and no data) on `/mcp` streams. */
  | { kind: 'withholdPriming' }
  /** Once the matched request's answer has ended, terminate its session at the server (DELETE). */
  | { kind: 'expire'; after: Match };

/** A fault as one line. */
export function describeFault(fault: Fault): string {
  const on = (m: Match): string =>
    [
      m.method,
      m.path,
      m.rpc,
      m.resume === undefined ? undefined : m.resume ? 'resume' : 'no resume',
      m.legacySession ? 'legacy session' : undefined,
      m.nth ? `#${m.nth}` : undefined,
    ]
      .filter((x) => x !== undefined)
      .join(' ');
  switch (fault.kind) {
    case 'cut':
      return `cut ${on(fault.on)} after ${fault.frames} frame(s)${fault.undrained ? ', the last undrained' : ''}`;
    case 'delay':
      return `delay frame ${fault.frame} of ${on(fault.on)} by ${fault.ms} ms`;
    case 'answer':
      return `answer ${on(fault.on)} with ${fault.status}`;
    case 'withholdPriming':
      return 'withhold priming events';
    case 'expire':
      return `expire the session after ${on(fault.after)}`;
  }
}
