/** Why `no-silent-loss` is required: what the spec's optional replay promises, and the SHOULD that a stream carries its response. */
import { quotedIn, sections, silentInLegacy, type PropertyDefinition } from '../definition.js';
import { replayMay } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'no-silent-loss',
  statement: 'if the server accepts a resume, the client application ends with every event of that stream that the replay contract promises, none skipped',
  level: 'should',
  quotes: [
    ...replayMay,
    ...quotedIn(
      ['2025-03-26', '2025-06-18', '2025-11-25'],
      sections.sending,
      'To avoid message loss due to disconnection, the server MAY make the stream resumable.',
    ),
    ...quotedIn(
      ['2025-03-26'],
      sections.sending,
      'The SSE stream SHOULD eventually include one JSON-RPC response per each JSON-RPC request sent in the POST body.',
    ),
    ...quotedIn(['2025-06-18'], sections.sending, 'The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC request sent in the POST body.'),
    ...quotedIn(
      ['2025-11-25'],
      sections.sending,
      'The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body.',
    ),
  ],
  derivation:
    'Resumption is optional (MAY), so the property applies only once a server has accepted a resume: answered a GET with a Last-Event-ID it issued with a stream. The MAY says what an accepted resume does: replay what would have been sent after the last event ID on that stream and continue from that point, so a message skipped means the stream did not resume from that point. No MUST requires a complete replay; a lost response breaks the SHOULD that the stream eventually carries it, hence SHOULD. A lost notification alone departs from the replay the MAY describes, which no MUST or SHOULD states: a failure that loses notifications only is graded POLICY.',
  weaker: {
    level: 'policy',
    when: 'only notifications were lost (every response arrived, or the stream carries none, as the standalone stream)',
    why: 'No MUST or SHOULD states that a replay carries every notification: the MAY describes such a replay, and the SHOULD above is about the response. This project requires every notification the replay promises: a progress or log notification that vanishes leaves the application with a wrong account of the call, and nothing tells the client it is missing.',
  },
  claims: ['000-incident'],
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption: no event IDs and no Last-Event-ID.')],
};
