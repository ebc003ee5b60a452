/**
 * Client scenarios from fast-check: runs are what `{seed, path}` names, a failure is shrunk and its
 * printed `{seed, path}` replays the very scenario, and the correct client passes the same runs.
 * Fixed seed, few runs, short timeouts.
 */
import { describe, expect, it } from 'vitest';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import { drawnAt, sampleDrawn, scenarioOf } from '../../src/check-client/interleavings.js';
import { runClientCheck } from '../../src/check-client/run.js';
import { clientMutantByName } from '../../src/check-client/mutants/index.js';

const seed = 1;
// Generous: on a loaded machine a correct client must still hear its answers before it times out.
const timeoutMs = 1000;

describe('client interleavings', () => {
  it('names each run by {seed, path}, and fits faults to the transport', () => {
    const runs = sampleDrawn(seed, 12);
    for (const [i, drawn] of runs.entries()) expect(drawnAt(seed, String(i))).toEqual(drawn);
    for (const drawn of runs) {
      const scenario = scenarioOf(drawn, timeoutMs, 'x');
      const paths = scenario.faults.flatMap((f) => (f.kind === 'withholdPriming' ? ['/mcp'] : [f.kind === 'expire' ? f.after.path : f.on.path]));
      // Legacy faults on /sse, or a legacy session answered at /mcp; streamable faults at /mcp only.
      if (drawn.transport === 'streamable') expect(paths.every((p) => p === '/mcp')).toBe(true);
      else expect(scenario.faults.every((f) => (f.kind === 'cut' ? f.on.path === '/sse' : f.kind === 'answer' && f.on.legacySession === true))).toBe(true);
      expect(scenario.calls.map((c) => c.args.count)).toEqual(drawn.calls);
    }
    expect(() => drawnAt(seed, 'x')).toThrow(/not a fast-check path/);
  });

  it("without the model's scenarios, fast-check alone finds seed 000's client (cursor on parse, read-ahead dropped on an unclean cut) on seeds 1, 2 and 3; the correct client passes the same runs", async () => {
    const mutant = clientMutantByName('cursor-on-receive');
    for (const s of [1, 2, 3]) {
      // --no-model with the fixed catalog left out too: what is found, the draws found.
      const options = { timeoutMs: 800, fixed: false, model: false, runs: 20, seed: s, shrinkMs: 1 } as const;
      const report = await runClientCheck(mutant.factory, { ...options, name: mutant.name });
      const failed = report.properties
        .filter((p) => p.status === 'fail')
        .map((p) => p.id)
        .sort();
      expect({ seed: s, failed }).toEqual({ seed: s, failed: [...mutant.breaks].sort() });
      const correct = await runClientCheck(checkingClientFactory(), { ...options, name: 'checking-client' });
      expect({ seed: s, failed: correct.properties.filter((p) => p.status === 'fail').map((p) => p.id) }).toEqual({ seed: s, failed: [] });
    }
  }, 180_000);

  it('finds, shrinks and replays a mutant failure; the correct client passes the same runs', async () => {
    const mutant = clientMutantByName('retry-on-timeout');
    // A seed whose first runs delay a result past the timeout.
    const seed = 9;
    const options = { name: mutant.name, timeoutMs, fixed: false, model: false, runs: 6, seed, shrinkMs: 2000 } as const;
    const report = await runClientCheck(mutant.factory, options);
    const failed = report.properties.find((p) => p.id === 'client-no-silent-resend')!;
    expect(failed.status).toBe('fail');
    const c = failed.counterexample!;
    expect({ source: c.source, seed: c.seed }).toEqual({ source: 'fast-check', seed });
    expect(c.path).toMatch(/^\d+(:\d+)*$/);
    // The shrunk scenario has a delay left: the fault that makes a timed-out call be re-sent.
    expect(c.faults.some((f) => f.startsWith('delay'))).toBe(true);

    const replayed = await runClientCheck(mutant.factory, { name: mutant.name, timeoutMs, seed, path: c.path, only: ['client-no-silent-resend'] });
    expect(replayed.scenarios).toHaveLength(1);
    expect({ faults: replayed.scenarios[0]!.faults, calls: replayed.scenarios[0]!.calls }).toEqual({ faults: c.faults, calls: c.calls });
    expect(replayed.properties[0]!.status).toBe('fail');

    const correct = await runClientCheck(checkingClientFactory(), { ...options, name: 'checking-client' });
    expect(correct.properties.filter((p) => p.status === 'fail').map((p) => p.id)).toEqual([]);
    expect(correct.scenarios.filter((s) => s.error !== undefined)).toEqual([]);
  }, 60_000);
});
