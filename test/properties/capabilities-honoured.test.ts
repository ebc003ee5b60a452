import { describe, expect, test } from 'vitest';
import { judgeCapabilitiesHonoured } from '../../properties/judges/capabilities-honoured.js';
import { HistoryBuilder, declared } from './history-builder.js';

function answered(info: { protocolVersion: unknown; clientCapabilities: unknown }, negotiated = '2025-11-25') {
  const h = new HistoryBuilder();
  h.initialize('S', { protocolVersion: negotiated });
  h.sessionInfo('S', info);
  return h;
}

describe('capabilities-honoured', () => {
  test('pass: session_info reports the declared capabilities and the negotiated version', () => {
    const j = judgeCapabilitiesHonoured(answered({ protocolVersion: '2025-11-25', clientCapabilities: declared }).view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 session_info answer(s) matched the negotiated capabilities');
  });

  test('fail: served under other capabilities (a default profile)', () => {
    const j = judgeCapabilitiesHonoured(answered({ protocolVersion: '2025-11-25', clientCapabilities: {} }).view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session S serves under client capabilities {}, but the client declared {"roots":{"listChanged":true}}');
  });

  test('fail: served under another protocol version than the one negotiated', () => {
    const j = judgeCapabilitiesHonoured(answered({ protocolVersion: '2024-11-05', clientCapabilities: declared }).view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session S serves under protocol 2024-11-05, but negotiated 2025-11-25');
  });

  test.each([
    ['2024-11-05', 'should'],
    ['2025-03-26', 'should'],
    ['2025-06-18', undefined],
    ['2025-11-25', undefined],
  ] as const)('a failure in a session that negotiated %s is graded by that revision: %s', (negotiated, graded) => {
    const j = judgeCapabilitiesHonoured(answered({ protocolVersion: negotiated, clientCapabilities: {} }, negotiated).view());
    expect(j.status).toBe('fail');
    // undefined: the property's own level (DERIVED, from the MUST)
    expect(j.level).toBe(graded);
  });

  test('the gravest failure decides: a MUST-revision session outranks an earlier SHOULD-revision one', () => {
    const h = new HistoryBuilder();
    h.initialize('OLD', { protocolVersion: '2025-03-26' });
    h.sessionInfo('OLD', { protocolVersion: '2025-03-26', clientCapabilities: {} });
    h.initialize('NEW', { protocolVersion: '2025-11-25' });
    h.sessionInfo('NEW', { protocolVersion: '2025-11-25', clientCapabilities: {} });
    const j = judgeCapabilitiesHonoured(h.view());
    expect(j.level).toBeUndefined();
    expect(j.reason).toMatch(/^session NEW /);
  });

  test('a server that cannot tell its version (null) is judged on capabilities alone', () => {
    expect(judgeCapabilitiesHonoured(answered({ protocolVersion: null, clientCapabilities: declared }).view()).status).toBe('pass');
  });

  test('null capabilities equal an empty declaration', () => {
    const h = new HistoryBuilder();
    h.initialize('S', { capabilities: {} });
    h.sessionInfo('S', { protocolVersion: '2025-11-25', clientCapabilities: null });
    expect(judgeCapabilitiesHonoured(h.view()).status).toBe('pass');
  });

  test('skip: no session_info answer, or one for a session never established', () => {
    const none = new HistoryBuilder();
    none.initialize('S');
    const j = judgeCapabilitiesHonoured(none.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toMatch(/^no session_info answer/);
    const failedInit = new HistoryBuilder();
    failedInit.initialize('S', { error: true });
    failedInit.sessionInfo('S', { protocolVersion: 'x', clientCapabilities: {} });
    expect(judgeCapabilitiesHonoured(failedInit.view()).status).toBe('skip');
  });
});
