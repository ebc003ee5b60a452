/**
 * What each client property rests on: its level and the specification's sentences (2025-11-25's
 * pages, quoted verbatim with markup dropped), in the shape of the server properties' definitions.
 */
import { quotedIn, sections, silentInLegacy, specUrl, type PropertyDefinition, type SpecQuote } from '../definition.js';
import type { ClientPropertyId } from './ids.js';

/** A client property's definition: a server definition's shape with a client ID. */
export interface ClientPropertyDefinition extends Omit<PropertyDefinition, 'id'> {
  id: ClientPropertyId;
}

/** A sentence of the lifecycle page's Timeouts section (not among the server definitions' sections). */
function timeoutsQuote(text: string): SpecQuote {
  return { revision: '2025-11-25', url: specUrl('2025-11-25', 'basic/lifecycle', 'timeouts'), section: 'Timeouts', text };
}
const latest = ['2025-11-25'] as const;

const resumeSentence =
  'If the client wishes to resume after a disconnection (whether due to network failure or server-initiated closure), it SHOULD issue an HTTP GET to the MCP endpoint, and include the Last-Event-ID header to indicate the last event ID it received.';
const replaySentence =
  'The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected, and to resume the stream from that point.';
const notFoundSentence =
  'When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.';
const sessionHeaderSentence =
  'If an MCP-Session-Id is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the MCP-Session-Id header on all of their subsequent HTTP requests.';
const timeoutSentence = 'Implementations SHOULD establish timeouts for all sent requests, to prevent hung connections and resource exhaustion.';
const stopWaitingSentence =
  'When the request has not received a success or error response within the timeout period, the sender SHOULD issue a cancellation notification for that request and stop waiting for a response.';
const eventIdSentence =
  'Servers MAY attach an id field to their SSE events, as described in the SSE standard. If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use.';
const disconnectionSentence = 'Disconnection SHOULD NOT be interpreted as the client cancelling its request.';

/** The client properties' definitions, by ID. */
export const clientDefinitions: Record<ClientPropertyId, ClientPropertyDefinition> = {
  'client-delivers-exactly-once': {
    id: 'client-delivers-exactly-once',
    statement:
      'every notification and the result of a call reach the application exactly once, or the call rejects: nothing the server sent for it is silently lost, nothing is delivered twice',
    level: 'policy',
    quotes: [
      ...quotedIn(latest, sections.resumability, replaySentence),
      ...quotedIn(latest, sections.sending, 'To avoid message loss due to disconnection, the server MAY make the stream resumable.'),
      ...quotedIn(latest, sections.resumability, eventIdSentence),
    ],
    rationale:
      "The spec makes redelivery possible (a resumable stream, a replay after the last event ID) but states no duty of the client application's delivery, and none to drop a replayed copy: those sentences bind the server. This project's rule: a client that resumes must hand its application what the replay completes, once; a call whose messages it cannot complete must fail visibly. Seed 000's loss is the violation: a result the server sent, the client's cursor moved past, and the application never saw. A duplicate arises only where a server replays from the cursor inclusive, a departure from 'after the last event ID' (seed 000's servers; the checker's inclusive-replay scenarios make it on purpose); the client is still asked to deliver once, as defence in depth, because it can: event IDs are unique within a session, so a copy of an event it delivered is recognizable.",
    claims: ['000-incident'],
    silences: [silentInLegacy('The HTTP+SSE transport has no resumption; a lost stream loses what was on it, and nothing promises more.')],
  },
  'client-resume-cursor-processed': {
    id: 'client-resume-cursor-processed',
    statement:
      'every Last-Event-ID the client presents names an event whose message its application has already processed (or an event without a message), so a replay after it loses nothing',
    level: 'policy',
    quotes: [...quotedIn(latest, sections.resumability, resumeSentence), ...quotedIn(latest, sections.resumability, replaySentence)],
    rationale:
      "The spec says the header indicates 'the last event ID it received' and the server replays what comes after it. A client whose transport counts an event as received when it is parsed, before its application has it, presents a cursor past an event it may still drop (a read-ahead buffer lost with the connection): the server replays after it, exactly as told, and the event is gone. The model's cursorAdvance knob shows onReceive losing on a pure streamable deployment; this project requires the cursor to move on processing.",
    claims: ['000-incident'],
    silences: [silentInLegacy('The HTTP+SSE transport has no Last-Event-ID.')],
  },
  'client-reinitializes-on-404': {
    id: 'client-reinitializes-on-404',
    statement:
      "after a 404 to a request carrying a session ID, the client's next request to the MCP endpoint is an InitializeRequest without a session ID, and once that new session has an ID the client never presents the dead one there again",
    level: 'derived',
    quotes: [...quotedIn(latest, sections.sessionManagement, notFoundSentence), ...quotedIn(latest, sections.sessionManagement, sessionHeaderSentence)],
    derivation: `The MUST: "${notFoundSentence}" Starting the new session is the client's answer to the 404, so its next request to the MCP endpoint is that InitializeRequest without a session ID (the first clause; a request presenting the dead session instead is the failure the MUST names). "Never presents the dead one again" is not in that sentence; it follows from it with the next MUST of Session Management: "${sessionHeaderSentence}" Once the new session's initialization returned an ID, every later request to the MCP endpoint must carry that ID in its MCP-Session-Id header, so one carrying the dead session's ID breaks it. Where the new initialization returned no ID, no sentence forbids the old one, and the clause is not judged.`,
    silences: [silentInLegacy('The HTTP+SSE transport has no session header and no 404 rule.')],
  },
  'client-no-cross-transport-session': {
    id: 'client-no-cross-transport-session',
    statement:
      "a client never presents a session established under one transport at the other transport's endpoints (a legacy session ID at the MCP endpoint, or a streamable one at the legacy endpoints)",
    level: 'policy',
    quotes: [
      ...quotedIn(
        latest,
        sections.backwardsCompatibility,
        'When the endpoint event arrives, the client can assume this is a server running the old HTTP+SSE transport, and should use that transport for all subsequent communication.',
      ),
      ...quotedIn(
        latest,
        sections.resumability,
        'This mechanism applies regardless of how the original stream was initiated (via POST or GET). Resumption is always via HTTP GET with Last-Event-ID.',
      ),
    ],
    rationale:
      "The spec's 'should' here is lower case (no BCP 14 keyword), and resumption is defined within streamable HTTP only: nothing lets a client carry a legacy session to the MCP endpoint. Seed 003 is what happens when a server accepts one; a client that never presents one cannot meet it. Policy, with the server-side twin no-cross-transport-resume.",
    claims: ['003-rule'],
    silences: [],
  },
  'client-no-silent-resend': {
    id: 'client-no-silent-resend',
    statement:
      'a tool call the application made once is accepted by the server at most once: the client never re-sends a call the server may have executed without telling the application',
    level: 'policy',
    quotes: [...quotedIn(latest, sections.sending, disconnectionSentence), timeoutsQuote(stopWaitingSentence)],
    rationale:
      'The spec tells a sender whose request timed out to cancel it and stop waiting, and a disconnection is not a cancellation: the server may still be executing it. Re-sending the same tool call under a new request ID runs a non-idempotent tool twice (seed 000: the retried call). A call the server refused (a 404 for a dead session) was never executed and may be sent again in a new session.',
    claims: ['000-incident'],
    silences: [],
  },
  'client-bounded-wait': {
    id: 'client-bounded-wait',
    statement: "every call settles (resolves or rejects) within the checker's bound: no wait is unbounded and unsurfaced",
    level: 'should',
    quotes: [timeoutsQuote(timeoutSentence), timeoutsQuote(stopWaitingSentence)],
    derivation:
      'A call still pending after a bound several times the client timeout the checker configured is one whose wait the client did not bound: the Timeouts SHOULD.',
    silences: [],
  },
};
