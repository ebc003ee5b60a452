import { describe, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

describe('mcp-resume-spec explore', () => {
  test('reference: exit 0, states explored, no violation', async () => {
    const run = await runCli(['explore', '--bounds', 'calls=1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/explored 233 states, \d+ transitions in [\d.]+ s/);
    expect(run.stdout).toContain('no violation: 12 invariants hold in every reachable state');
  });

  test('seed-000: exit 1, every violation with its numbered trace', async () => {
    const run = await runCli(['explore', '--policy', 'seed-000', '--bounds', 'calls=1,notifications=1,drops=1,resumes=1']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/VIOLATED no-silent-loss \(shortest trace: \d+ steps\)/);
    expect(run.stdout).toMatch(/VIOLATED no-cross-transport-resume/);
    expect(run.stdout).toMatch(/\n 1\. client initializes over sse -> 200\n {4}server: /);
  });

  test('--matrix: one row per named policy', async () => {
    const run = await runCli(['explore', '--matrix', '--bounds', 'calls=1,notifications=1,drops=1,resumes=1']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\nreference +\d+ +ok +ok/);
    expect(run.stdout).toMatch(/\nseed-003 +\d+ +FAIL\(\d+\)/);
  });

  test.each([
    [['explore', '--policy', 'nope'], /unknown policy "nope"/],
    [['explore', '--bounds', 'calls=two'], /malformed bound/],
    [['explore', '--bounds', 'calls=99'], /too large/],
    [['explore', '--bounds', 'calls=4,notifications=4,drops=4,resumes=4', '--max-seconds', '1'], /too large: still exploring after 1 s/],
    // Every thread of the matrix (this one and a worker) runs out of time: the error is reported once, on one line.
    [['explore', '--matrix', '--bounds', 'calls=3,drops=3', '--max-seconds', '1'], /too large: still exploring after 1 s/],
    [['explore', '--frobnicate'], /unknown flag --frobnicate; run 'mcp-resume-spec explore --help'/],
    [['nonsense'], /unknown command "nonsense"/],
  ])('bad input %j: exit 2 with a one-line reason', async (args, reason) => {
    const run = await runCli(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(reason as RegExp);
  });
});
