/** Why `replay-has-no-gap` is required: what the spec's optional replay is, and this project's rule for a cursor the log no longer holds. */
import { silentInLegacy, type PropertyDefinition } from '../definition.js';
import { reinitializeOn404, replayMay } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'replay-has-no-gap',
  statement:
    "an accepted resume replays the stream from the cursor on: its first message is the one that followed the cursor's, and none is skipped (a cursor older than the retained log is refused with 404, never answered with what is left)",
  level: 'policy',
  quotes: [...replayMay, ...reinitializeOn404],
  rationale:
    'The MAY describes a replay as resuming the stream "from that point", the last event ID, but no MUST or SHOULD forbids a replay that starts later, and the spec says nothing of a server that bounds its event log. A replay with a gap looks complete to the client, which cannot tell what it missed; so a server whose retention has dropped the cursor\'s event (or any event after it) must refuse the cursor as it refuses an unknown one, with the 404 for which the spec gives the client a MUST, never replay what is left.',
  claims: [],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption: no event IDs and no Last-Event-ID.')],
};
