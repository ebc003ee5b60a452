/**
 * The properties, by stable ID. Reports, docs and tests use these IDs; each has one judge of
 * recorded histories in `properties/` and, where it applies to model states, one invariant here.
 */

export const propertyIds = [
  'no-silent-loss',
  'no-cross-transport-resume',
  'unknown-cursor-rejected',
  'no-cross-stream-replay',
  'no-cross-session-replay',
  'event-ids-unique',
  'order-preserved',
  'capabilities-honoured',
  'at-most-once-effect',
  'no-silent-stall',
  'session-ids-secure',
  'terminated-session-404',
] as const;

export type PropertyId = (typeof propertyIds)[number];

/** What each property says. */
export const propertyStatements: Record<PropertyId, string> = {
  'no-silent-loss':
    'if the server accepts a resume, the client application ends with every event of that stream that the replay contract promises, none skipped',
  'no-cross-transport-resume':
    'a session established under one transport is never resumed (2xx stream) under the other; the answer is 404-class so the client re-initializes',
  'unknown-cursor-rejected':
    "a Last-Event-ID that is not in this session's log for this stream is answered 404-class, never 200 with a quiet stream",
  'no-cross-stream-replay': 'a replay carries only events of the stream the cursor belongs to',
  'no-cross-session-replay': "a cursor minted in session A, presented with session B's id, never yields A's events",
  'event-ids-unique': 'event IDs are unique across all streams of a session',
  'order-preserved': 'per stream, events reach the application in the order they were sent (each once)',
  'capabilities-honoured': "every request is served under the capabilities negotiated in that session's initialize",
  'at-most-once-effect': "a tool call's side effect runs once, even across drops, resumes and client retries",
  'no-silent-stall': 'every request ends in its response or in an error that tells the client what to do',
  'session-ids-secure': 'session IDs are visible ASCII (0x21-0x7E) and unguessable',
  'terminated-session-404': 'after DELETE, requests with that session ID get 404',
};

/** Properties about the bytes of real IDs: the model's IDs are abstract, so they have no invariant. */
export const historyOnlyProperties: readonly PropertyId[] = ['session-ids-secure'];
