import { describe, expect, test } from 'vitest';
import { expiryClaim, retentionClaim } from '../../model/claims/production.js';
import { replay } from '../../model/trace.js';

describe('production claims (issue 12): idle expiry and bounded log retention', () => {
  test('expiry: confirmed, an expired session answers 404 and nothing breaks', () => {
    const j = expiryClaim.judge();
    expect(j.verdict).toBe('confirmed');
    expect(j.tables[0]!.rows[1]).toEqual(['idleTtl', expect.any(String), 'none', 'yes']);
    expect(j.traces.length).toBeGreaterThanOrEqual(1);
    const steps = replay(j.traces[0]!.policy, j.traces[0]!.bounds, j.traces[0]!.path);
    expect(steps.some((s) => s.step.type === 'EXPIRE')).toBe(true);
  });

  test('retention: confirmed, 404 breaks nothing, a partial replay breaks replay-has-no-gap', () => {
    const j = retentionClaim.judge();
    expect(j.verdict).toBe('confirmed');
    expect(j.tables[0]!.rows[0]![2]).toBe('none');
    expect(j.tables[0]!.rows[1]![2]).toContain('replay-has-no-gap');
    const gap = j.traces.find((t) => t.policy.server.logRetention === 'boundedPartialReplay')!;
    expect(replay(gap.policy, gap.bounds, gap.path).filter((s) => s.step.type === 'TRIM').length).toBeGreaterThanOrEqual(2);
  });
});
