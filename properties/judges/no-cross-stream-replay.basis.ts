/** Why `no-cross-stream-replay` is required: a MUST NOT of every streamable HTTP revision. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';
import { eventIdsEncodeStream } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'no-cross-stream-replay',
  statement: 'a replay carries only events of the stream the cursor belongs to',
  level: 'must',
  quotes: [
    ...quotedIn(
      streamableRevisions,
      sections.resumability,
      'The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected, and to resume the stream from that point. The server MUST NOT replay messages that would have been delivered on a different stream.',
    ),
    // How a server knows which stream a cursor belongs to (a SHOULD beside the MUST NOT).
    ...eventIdsEncodeStream,
  ],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption: no event IDs and no Last-Event-ID.')],
};
