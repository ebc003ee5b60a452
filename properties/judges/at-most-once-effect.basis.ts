/** Why `at-most-once-effect` is required: this project's rule; the spec makes resumption redeliver, and says nothing of running a call again. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'at-most-once-effect',
  statement: "a tool call's side effect runs once, even across drops, resumes and client retries",
  level: 'policy',
  quotes: [
    ...quotedIn(streamableRevisions, sections.resumability, 'To support resuming broken connections, and redelivering messages that might otherwise be lost:'),
    ...quotedIn(streamableRevisions, sections.sending, 'Disconnection SHOULD NOT be interpreted as the client cancelling its request.'),
  ],
  rationale:
    "The spec makes resumption redeliver messages already produced and says a disconnection is not a cancellation, but it says nothing about running a tool again when its stream is resumed or its call retried. This project requires a tool call's side effect to run once: a resume that re-runs the call instead of replaying what it sent, or a lost result that leads the client to retry, makes a user-visible effect happen twice (seed 000).",
  claims: ['000-retry-duplicates'],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption, and nothing on running a request again.')],
};
