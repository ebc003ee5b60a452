/** Seed 003's advice beyond the rule: retiring the old token, and translating cursors. */
import { describe, expect, test } from 'vitest';
import { retire003, translation003 } from '../../model/claims/seed-003-advice.js';
import { violatedInvariants } from '../../model/invariants.js';
import { reference, withKnob } from '../../model/policy.js';
import { createSession, sessionContext, stepSession } from '../../model/session-step.js';
import { replyReason } from '../../model/session-types.js';
import { replay } from '../../model/trace.js';

describe('seed 003 advice', () => {
  test('the old token is not retired, nothing breaks, and it still holds the in-flight result (refined)', () => {
    const j = retire003.judge();
    expect(j.verdict).toBe('refined');
    const t = j.traces[0]!;
    const world = replay(t.policy, t.bounds, t.path).at(-1)!.world;
    expect(world.sessions[0]!.value).toBe('active');
    expect(violatedInvariants(world)).toEqual([]);
    const [underOwn, underOther] = j.tables[0]!.rows;
    expect(underOwn![1]).toBe('200');
    expect(underOwn![2]).toMatch(/result of c1/);
    expect(underOther![1]).toMatch(/^404/);
  });

  test('translation is safe only with negotiated capabilities and an on-drain cursor (refined)', () => {
    const j = translation003.judge();
    expect(j.verdict).toBe('refined');
    // [crossTransportCursor, capabilitiesOnMigration, cursorAdvance, accepted, loss, stall, duplicate effect, foreign capabilities]
    for (const [cursor, capabilities, advance, accepted, loss, stall, , foreign] of j.tables[0]!.rows) {
      expect(accepted).toBe(cursor === 'translate' ? 'yes' : 'no');
      expect(foreign).toBe(cursor === 'translate' && capabilities === 'defaultProfile' ? 'yes' : 'no');
      expect(loss).toBe(advance === 'onReceive' ? 'yes' : 'no');
      expect(stall).toBe(advance === 'onReceive' ? 'yes' : 'no');
    }
  });

  test('the translate knob: a legacy cursor presented at /mcp is placed and replayed instead of answered as unknown', () => {
    const bridged = withKnob(reference, 'bridging', true);
    // A legacy session that sent a notification and a result on its stream.
    const legacySession = (policy: typeof reference) => {
      let session = createSession({ sessionId: 'x', tag: 's1', policy: policy.server });
      session = stepSession(session, { type: 'OPEN_LEGACY' });
      session = stepSession(session, { type: 'INITIALIZE', transport: 'sse', protocolVersion: '2024-11-05', capabilities: {} });
      session = stepSession(session, { type: 'REQUEST', transport: 'sse', requestId: 'q1', messages: ['n', 'r'] });
      session = stepSession(session, { type: 'SEND', stream: 'l0' });
      return stepSession(session, { type: 'SEND', stream: 'l0' });
    };
    const resumeAtMcp = (policy: typeof reference) => {
      const session = legacySession(policy);
      const cursor = sessionContext<string>(session).log[1]!.id;
      return sessionContext<string>(stepSession(session, { type: 'RESUME', transport: 'streamable', lastEventId: cursor })).reply;
    };
    const translated = resumeAtMcp(withKnob(bridged, 'crossTransportCursor', 'translate'));
    expect(translated.status).toBe(200);
    expect(translated.frames.map((f) => f.message)).toEqual(['r']);
    const unknown = resumeAtMcp(bridged);
    expect(unknown.status).toBe(404);
    expect(replyReason(unknown)).toMatch(/Last-Event-ID/);
  });
});
