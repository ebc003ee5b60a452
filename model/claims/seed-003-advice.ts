/**
 * Seed 003's advice beyond the rule, judged by the model: retire the old token after a
 * re-initialization, and never translate a cursor across transports.
 */
import { explore } from '../explore.js';
import { reference, withKnob, type Policy } from '../policy.js';
import { sessionContext, stepSession } from '../session-step.js';
import { replyReason } from '../session-types.js';
import type { WorldMessage } from '../world-types.js';
import { grade, judgementOf, yesNo, type Claim } from './claim.js';
import { lattice, showValue } from './lattice.js';
import { probe } from './probe.js';
import { bounds003, ruleBounds } from './seed-003.js';
import { acceptsMigration, consequences, recoversFromRefusedMigration } from './signatures.js';

const test = 'test/model/claims-003-advice.test.ts';

export const retire003: Claim = {
  id: '003-retire',
  seed: '003',
  claim:
    'Once the client re-initializes under the new transport, the session is effectively new: the old token should be retired, not resumed. A token is resumed only under the transport that issued it, unless the session was re-initialized there and a fresh token issued.',
  test,
  judge() {
    const result = explore({ policy: reference, bounds: ruleBounds, signatures: { recovers: recoversFromRefusedMigration } });
    const recovery = result.matches.recovers;
    if (!recovery) return judgementOf(this, { verdict: 'refuted', finding: 'The model finds no recovery from a refused migration.' });
    const [old, fresh] = recovery.world.sessions.map((s) => sessionContext<WorldMessage>(s));
    const oldSnapshot = recovery.world.sessions[0]!;
    // What the old token still does under its issuing transport: step the machine with the cursor the client kept.
    const resumed = sessionContext<WorldMessage>(
      stepSession(oldSnapshot, { type: 'RESUME', transport: old!.transport!, lastEventId: recovery.world.client.staleCursor! }),
    ).reply;
    const other = sessionContext<WorldMessage>(
      stepSession(oldSnapshot, { type: 'RESUME', transport: fresh!.transport!, lastEventId: recovery.world.client.staleCursor! }),
    ).reply;
    const resumedSession = stepSession(oldSnapshot, { type: 'RESUME', transport: old!.transport!, lastEventId: recovery.world.client.staleCursor! });
    const queued = sessionContext<WorldMessage>(resumedSession).streams.find((s) => s.id === resumed.stream)?.queue ?? [];
    // What the old token still hands over: the replay, then what is still queued on that stream.
    const replayed = [...resumed.frames.flatMap((f) => (f.message ? [f.message] : [])), ...queued].map(
      (m) => `${m.kind === 'result' ? 'result' : `notification ${m.seq}`} of ${m.call}`,
    );
    const harmless = result.violations.length === 0;
    return judgementOf(this, {
      verdict: grade({ contradicted: false, boundaryMoved: harmless }),
      finding:
        `After the refused migration and the re-initialization over ${fresh!.transport}, the old session ${old!.sessionId} is still ${String(oldSnapshot.value)}: the model's server retires nothing but on DELETE. ` +
        `There is no tension with the rule: the fresh token was issued by the new transport, and the old one still answers only under its own (presented at ${fresh!.transport}: ${other.status}). ` +
        `${harmless ? `Leaving it alive costs nothing the model can see: no invariant fails in any of ${result.states} reachable states. ` : ''}` +
        `Retiring it has a cost: presented under ${old!.transport} with the cursor the client kept, the old token still answers ${resumed.status} and hands over [${replayed.join(', ')}] (replayed, then sent from its queue): the in-flight result the 404 made the client give up on; a retired token forfeits that copy. ` +
        'So retire on DELETE or expiry, not on re-initialization.',
      tables: [
        {
          header: ['old token presented under', 'answer', 'hands over'],
          rows: [
            [old!.transport!, String(resumed.status), replayed.join(', ') || 'nothing'],
            [fresh!.transport!, `${other.status}${replyReason(other) ? ` ${replyReason(other)}` : ''}`, 'nothing'],
          ],
        },
      ],
      traces: [
        { title: 'Refused, re-initialized over the new transport; the old session is left alive', policy: reference, bounds: ruleBounds, path: recovery.path },
      ],
    });
  },
};

/** Knobs that decide whether translating a cursor is safe; the rest as in the reference with bridging on. */
const translationKnobs = ['crossTransportCursor', 'capabilitiesOnMigration', 'cursorAdvance'] as const;

export const translation003: Claim = {
  id: '003-translation',
  seed: '003',
  claim:
    'Do not repair a cross-transport resume by translating the cursor: translation is undefined, because SSE and streamable-HTTP event IDs are independently assigned and carry no common ordering.',
  test,
  judge() {
    const base: Policy = withKnob(reference, 'bridging', true);
    const names = Object.keys(consequences) as Array<keyof typeof consequences>;
    const rows: string[][] = [];
    const safeTranslations: string[] = [];
    let translatedAtAll = false;
    for (const cell of lattice(base, translationKnobs)) {
      const { found } = probe(cell.policy, bounds003, { accepted: acceptsMigration, ...consequences });
      const harmful = names.filter((n) => found[n]);
      const translate = cell.values[0]!.value === 'translate';
      if (translate) translatedAtAll ||= found.accepted!;
      if (translate && found.accepted && harmful.length === 0)
        safeTranslations.push(
          cell.values
            .slice(1)
            .map((v) => `${v.knob}=${showValue(v.value)}`)
            .join(', '),
        );
      rows.push([...cell.values.map((v) => showValue(v.value)), yesNo(found.accepted!), ...names.map((n) => yesNo(found[n]!))]);
    }
    return judgementOf(this, {
      // The seed's setting: logs with no common order. The model's session keeps one ordered log, outside that setting.
      verdict: grade({ contradicted: false, boundaryMoved: safeTranslations.length > 0 }),
      finding:
        (translatedAtAll
          ? 'In the model a session keeps one ordered log for both transports, each event tagged with the listener that minted it: there, translation is defined (the cursor names one event of one stream, and the replay is that stream after it). '
          : 'No translated migration is accepted. ') +
        (safeTranslations.length > 0
          ? `It is safe, judged by consequences, only with ${safeTranslations.join('; ')}: the same cells where a shared ID space is safe. With capabilities re-derived it serves foreign capabilities; with an on-receive cursor it inherits the drain race. `
          : 'It is never safe. ') +
        "Where a server's two logs really have no common order (the seed's setting), there is nothing to map to, and the seed is right; and translation only ever helps a bridged session, which the rule refuses anyway.",
      tables: [{ header: [...translationKnobs, 'model: migration accepted', ...names.map((n) => `model: ${n}`)], rows }],
    });
  },
};

export const advice003: Claim[] = [retire003, translation003];
