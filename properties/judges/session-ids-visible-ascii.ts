/**
 * `session-ids-visible-ascii`: every session ID is visible ASCII (0x21-0x7E). One ID is enough to
 * judge; a check that saw none skips.
 */
import type { HistoryView } from '../history-view.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';

export function judgeSessionIdsVisibleAscii(view: HistoryView): Judgement {
  const ids = [...new Set(view.sessions.map((s) => s.id))];
  if (ids.length === 0) return skip('no session ID seen');
  for (const id of ids) {
    if (!/^[\x21-\x7e]+$/.test(id)) return fail(`session ID ${JSON.stringify(id)} has characters outside visible ASCII`);
  }
  return pass(`${ids.length} session ID(s), all visible ASCII`);
}
