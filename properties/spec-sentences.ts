/**
 * Spec sentences that several properties rest on, quoted once: each `.basis.ts` spreads the ones it
 * needs into its quotes.
 */
import { quotedIn, sections, type SpecQuote } from './definition.js';

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
