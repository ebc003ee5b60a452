/** Why `unknown-cursor-rejected` is required: this project's rule; the spec says nothing of a cursor the server cannot place. */
import { silentInLegacy, type PropertyDefinition } from '../definition.js';
import { reinitializeOn404, replayMay } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'unknown-cursor-rejected',
  statement: "a Last-Event-ID that is not in this session's log for this stream is answered 404-class, never 200 with a quiet stream",
  level: 'policy',
  quotes: [
    ...replayMay,
    ...reinitializeOn404,
  ],
  rationale:
    'The spec says what a server may do with a Last-Event-ID it can place, and nothing about one it cannot (never issued, or issued in another session or log). A 200 with a stream that will never carry anything looks like a quiet period, so the client waits on stale assumptions; 404 is the one answer for which the spec gives the client a MUST (start a new session), so it turns an unplaceable cursor into a visible, recoverable re-initialization.',
  claims: ['003-quiet-stream', '003-rule'],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption: no event IDs and no Last-Event-ID.')],
};
