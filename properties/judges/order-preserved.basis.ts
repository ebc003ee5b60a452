/** Why `order-preserved` is required: this project's rule; the spec describes replay but states no order or once-only requirement. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'order-preserved',
  statement: 'per stream, events reach the application in the order they were sent (each once)',
  level: 'policy',
  quotes: [
    ...quotedIn(
      streamableRevisions,
      sections.resumability,
      'The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected, and to resume the stream from that point.',
    ),
    ...quotedIn(
      streamableRevisions,
      sections.multipleConnections,
      'The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams.',
    ),
  ],
  rationale:
    "An SSE stream is ordered, and the spec describes a resume as replaying what would have been sent after the last event ID and continuing from that point, but no MUST or SHOULD says a replay keeps the original order or carries each message once on its stream (the MUST NOT above is about other streams). This project requires both: progress notifications and the response that ends a call mean something only in order, and a message delivered twice runs the client's handler twice.",
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption, so a stream is only ever delivered once, in order, by SSE itself.')],
};
