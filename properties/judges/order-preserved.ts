/** `order-preserved`: per stream, messages reach the application in the order they were sent, each once. */
import type { HistoryView } from '../history-view.js';
import { fixtureNotification, isResponse } from '../messages.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';
import { fixtureCalls } from '../fixture-calls.js';

export function judgeOrderPreserved(view: HistoryView): Judgement {
  const calls = fixtureCalls(view);
  let judged = 0;
  const origins = new Set([...view.exchanges.keys()].map((c) => view.originOf(c)));
  for (const origin of origins) {
    const drains = view.connsOfStream(origin).flatMap((c) => view.exchanges.get(c)!.drains.filter((d) => !d.duplicate));
    const lastSeq = new Map<string, number>();
    const answered = new Set<string>();
    const seen = new Set<string>();
    let fixtureMessages = 0;
    for (const d of drains) {
      const note = fixtureNotification(d.message);
      const key = note ? `${note.label}#${note.seq}` : isResponse(d.message) ? `response ${JSON.stringify(d.message.id)}` : undefined;
      if (key === undefined) continue;
      fixtureMessages++;
      if (seen.has(key)) return fail(`the application processed ${key} twice on the stream of connection ${origin}`, [d.seq]);
      seen.add(key);
      if (note) {
        const call = calls.find((c) => c.label === note.label && c.tool !== 'session_info');
        if ((lastSeq.get(note.label) ?? 0) > note.seq || (call && answered.has(JSON.stringify(call.request.id)))) {
          return fail(`notification ${note.seq} of ${note.label} reached the application out of order on the stream of connection ${origin}`, [d.seq]);
        }
        lastSeq.set(note.label, note.seq);
      } else {
        answered.add(JSON.stringify(d.message!.id));
      }
    }
    if (fixtureMessages >= 2) judged++;
  }
  return judged > 0 ? pass(`${judged} stream(s) delivered in order, each message once`) : skip('no stream delivered two messages to judge');
}
