/**
 * Spec sentences issue 23 asked to face: the MUST on a GET to the MCP endpoint (a stream or 405),
 * beside the unknown-cursor policy; and 2025-11-25's SHOULD that event IDs name their stream,
 * where it bears (cross-stream replay, event IDs, seed 000's namespacing).
 */
import { expect, test } from 'vitest';
import { namespacing000 } from '../../model/claims/seed-000.js';
import { streamableRevisions } from '../../properties/definition.js';
import { definitions } from '../../properties/definitions.js';
import { eventIdsEncodeStream, getStreamOr405 } from '../../properties/spec-sentences.js';

test('unknown-cursor-rejected quotes the MUST on a GET (a stream or 405) in every streamable revision and says how a 404 stands to it', () => {
  const d = definitions['unknown-cursor-rejected'];
  for (const revision of streamableRevisions) {
    expect(d.quotes).toContainEqual(getStreamOr405.find((q) => q.revision === revision));
  }
  expect(getStreamOr405[0]!.text).toMatch(
    /^The server MUST either return Content-Type: text\/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed/,
  );
  expect(getStreamOr405[0]!.url).toBe('https://modelcontextprotocol.io/specification/2025-03-26/basic/transports#listening-for-messages-from-the-server');
  expect(d.rationale).toContain('a 404 (or 400) to a resume GET on a live session breaks that MUST');
  expect(d.rationale).toContain('The spec is not wholly silent, though');
});

test("2025-11-25's SHOULD that event IDs name their stream is quoted by the cross-stream and event-ID properties and by 000-namespacing", () => {
  expect(eventIdsEncodeStream.map((q) => [q.revision, q.level])).toEqual([['2025-11-25', 'should']]);
  for (const id of ['no-cross-stream-replay', 'event-ids-unique'] as const) {
    expect(definitions[id].quotes, id).toContainEqual(eventIdsEncodeStream[0]);
  }
  expect(namespacing000.judge().finding).toContain(`"${eventIdsEncodeStream[0]!.text}"`);
});
