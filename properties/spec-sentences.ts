/**
 * Spec sentences that several properties rest on, quoted once: each `.basis.ts` spreads the ones it
 * needs into its quotes.
 */
import { eventIdsEncodeStreamText } from '../model/spec-text.js';
import { quotedIn, sections, streamableRevisions, type SpecQuote } from './definition.js';

/** The one sentence that says what a replay is (optional: a MAY), in every revision that has resumption. */
export const replayMay: SpecQuote[] = quotedIn(
  ['2025-03-26', '2025-06-18', '2025-11-25'],
  sections.resumability,
  'The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected, and to resume the stream from that point.',
);

/** The client's MUST on a 404: start a new session (the header's spelling changed in 2025-11-25). */
export const reinitializeOn404: SpecQuote[] = [
  ...quotedIn(
    ['2025-03-26', '2025-06-18'],
    sections.sessionManagement,
    'When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.',
  ),
  ...quotedIn(
    ['2025-11-25'],
    sections.sessionManagement,
    'When a client receives HTTP 404 in response to a request containing an MCP-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.',
  ),
];

/**
 * The server's MUST on a GET to the MCP endpoint: a stream or 405. A resume is such a GET, so a 404
 * (or 400) to a resume on a live session is in tension with it.
 */
export const getStreamOr405: SpecQuote[] = quotedIn(
  streamableRevisions,
  sections.listening,
  'The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed, indicating that the server does not offer an SSE stream at this endpoint.',
);

/** 2025-11-25's SHOULD (from SEP-1699's clarifications): an event ID names its stream. */
export const eventIdsEncodeStream: SpecQuote[] = quotedIn(['2025-11-25'], sections.resumability, eventIdsEncodeStreamText, 'should');
