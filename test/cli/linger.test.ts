/**
 * The note for a process something still keeps up after its command: it blames an adapter only
 * when one was loaded (a plain --url check runs no code of the user's) and says what is open.
 */
import { describe, expect, test } from 'vitest';
import { lingerNote } from '../../src/cli/linger.js';

describe('the linger note', () => {
  test("a plain --url check: the checker's own handles, not an adapter's", () => {
    const note = lingerNote(['check', '--url', 'http://127.0.0.1:3000/mcp'], ['TCPSocketWrap', 'TCPSocketWrap', 'Timeout'], 2000);
    expect(note).toBe(
      "note: an open socket or timer of the checker's own (a connection the server had not closed yet, say) still kept the process up 2 s after the command ended (2 TCPSocketWrap, 1 Timeout); exiting",
    );
    expect(note).not.toMatch(/adapter/);
  });

  test('an adapter, or a client under check, is named as what may have left it open', () => {
    expect(lingerNote(['check', '--adapter', 'a.ts'], ['Timeout'], 2000)).toBe(
      'note: an open socket or timer (one the adapter started and did not stop, say) still kept the process up 2 s after the command ended (1 Timeout); exiting',
    );
    expect(lingerNote(['check-client', '--adapter=a.ts'], [], 2000)).toMatch(
      /^note: an open socket or timer \(one the adapter started and did not stop, say\) still kept the process up 2 s after the command ended; exiting$/,
    );
    expect(lingerNote(['check-client', '--client', 'sdk'], [], 2000)).toMatch(/one the client under check left open/);
  });
});
