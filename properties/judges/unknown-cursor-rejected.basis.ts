/** Why `unknown-cursor-rejected` is required: this project's rule; the spec says nothing of a cursor the server cannot place, and its MUST on a GET (a stream or 405) pulls the other way. */
import { silentInLegacy, type PropertyDefinition } from '../definition.js';
import { getStreamOr405, reinitializeOn404, replayMay } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'unknown-cursor-rejected',
  statement: "a Last-Event-ID that is not in this session's log for this stream is answered 404-class, never 200 with a quiet stream",
  level: 'policy',
  quotes: [...replayMay, ...reinitializeOn404, ...getStreamOr405],
  rationale:
    'The spec says what a server may do with a Last-Event-ID it can place, and nothing about one it cannot (never issued, or issued in another session or log). A 200 with a stream that will never carry anything looks like a quiet period, so the client waits on stale assumptions; 404 is the one answer for which the spec gives the client a MUST (start a new session), so it turns an unplaceable cursor into a visible, recoverable re-initialization. The spec is not wholly silent, though: a resume is an HTTP GET to the MCP endpoint, and the server MUST answer such a GET with text/event-stream or 405. Read literally, a 404 (or 400) to a resume GET on a live session breaks that MUST, and the only answers it allows are a stream (the quiet answer this rule refuses) or 405 (which says the endpoint offers no SSE stream at all, false for a server that does). This project takes the 404 anyway, because it is the one refusal the spec tells a client to act on (for a session that is gone; for a live one it costs a re-initialization, see docs/spec-proposals.md, proposal 2), and asks the spec to name the answer (spec issue 1939). So this policy fails a 405 here, an answer the MUST allows: it does not tell the client to start a new session.',
  claims: ['003-quiet-stream', '003-rule'],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption: no event IDs and no Last-Event-ID.')],
};
