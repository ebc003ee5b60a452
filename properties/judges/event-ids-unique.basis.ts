/** Why `event-ids-unique` is required: a MUST of every streamable HTTP revision. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';
import { eventIdsEncodeStream } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'event-ids-unique',
  statement: 'event IDs are unique across all streams of a session',
  level: 'must',
  quotes: [
    ...quotedIn(
      streamableRevisions,
      sections.resumability,
      'Servers MAY attach an id field to their SSE events, as described in the SSE standard. If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use.',
    ),
    // What else an ID should carry from 2025-11-25 on: its stream (a SHOULD; uniqueness stays the MUST judged here).
    ...eventIdsEncodeStream,
  ],
  silences: [silentInLegacy('The HTTP+SSE transport defines no SSE event IDs.')],
};
