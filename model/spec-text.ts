/**
 * Spec sentences the model's own claims quote. The properties quote them too (with their pages and
 * levels, `properties/spec-sentences.ts`): the text lives here, below both, so that it is written once
 * and the model never imports the properties.
 */

/** 2025-11-25, Resumability and Redelivery (a SHOULD, from SEP-1699's clarifications): an event ID names its stream. */
export const eventIdsEncodeStreamText =
  'Event IDs SHOULD encode sufficient information to identify the originating stream, enabling the server to correlate a Last-Event-ID to the correct stream.';
