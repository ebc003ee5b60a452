/**
 * What the client check finds out before judging: per transport, whether the client completes a
 * plain tools/call with nothing injected. A client that completes none cannot be checked (it must
 * not pass for doing nothing); a transport it does not serve is not run (it must not fail, nor
 * fill the report with runs that could not start); a factory that hangs is found once; a close()
 * that never finishes is a note.
 */
import { describe, expect, it } from 'vitest';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import type { ClientFactory, ClientUnderTest } from '../../src/check-client/adapters/contract.js';
import { clientExitStatus } from '../../src/check-client/report.js';
import { sampleDrawn } from '../../src/check-client/interleavings.js';
import { runClientCheck } from '../../src/check-client/run.js';

// Generous: on a loaded machine a correct client must still hear its answers before it times out.
const timeoutMs = 1000;
const correct = checkingClientFactory();

/** A client whose callTool throws without touching the network. */
const broken: ClientFactory = async () => ({
  callTool: async () => {
    throw new Error('not implemented');
  },
  onNotification: () => {},
  close: async () => {},
});

/** The correct client, but the application sends no arguments (the server refuses the call). */
const emptyArguments: ClientFactory = async (options) => {
  const inner = await correct(options);
  return { ...bind(inner), callTool: (name: string) => inner.callTool(name, {}) };
};

function bind(inner: ClientUnderTest): ClientUnderTest {
  return { callTool: (n, a) => inner.callTool(n, a), onNotification: (l) => inner.onNotification(l), close: () => inner.close() };
}

const streamableOnly: ClientFactory = async (options) => {
  if (options.transport === 'sse') throw new Error('this client speaks streamable HTTP only');
  return correct(options);
};

describe('check-client finds out what the client can do before judging it', () => {
  it('a client whose calls always fail cannot be checked: ClientUnusable naming each transport, nothing passes', async () => {
    const run = runClientCheck(broken, { name: 'broken', timeoutMs, runs: 5, seed: 1 });
    await expect(run).rejects.toMatchObject({
      name: 'ClientUnusable',
      message: expect.stringMatching(
        /completes no tools\/call with no fault injected: streamable HTTP: call fails \(not implemented\); legacy HTTP\+SSE: call fails \(not implemented\)/,
      ),
    });
  });

  it('a client that sends arguments {} and whose calls reject cannot be checked either', async () => {
    await expect(runClientCheck(emptyArguments, { name: 'empty-arguments', timeoutMs, runs: 5, seed: 1 })).rejects.toMatchObject({ name: 'ClientUnusable' });
  });

  it('a client that resolves its calls without sending them did nothing: it cannot be checked', async () => {
    const idle: ClientFactory = async () => ({ callTool: async () => ({ content: [] }), onNotification: () => {}, close: async () => {} });
    await expect(runClientCheck(idle, { name: 'idle', timeoutMs, model: false })).rejects.toThrow(
      'the client completes no tools/call with no fault injected: streamable HTTP: call resolved, but no tools/call reached the server; legacy HTTP+SSE: call resolved, but no tools/call reached the server',
    );
  });

  it('fast-check draws only the transports the client serves; over both, a seed draws what it always drew', () => {
    const both = sampleDrawn(7, 30);
    expect(new Set(both.map((d) => d.transport))).toEqual(new Set(['streamable', 'sse']));
    expect(sampleDrawn(7, 30, ['sse', 'streamable'])).toEqual(both);
    expect(new Set(sampleDrawn(7, 30, ['streamable']).map((d) => d.transport))).toEqual(new Set(['streamable']));
    expect(new Set(sampleDrawn(7, 30, ['sse']).map((d) => d.transport))).toEqual(new Set(['sse']));
  });

  it('a factory that hangs is found once, with the reason', async () => {
    let calls = 0;
    const hanging: ClientFactory = () => {
      calls++;
      return new Promise<never>(() => {});
    };
    await expect(runClientCheck(hanging, { name: 'hanging', timeoutMs, runs: 20, seed: 1, connectMs: 300 })).rejects.toMatchObject({
      name: 'ClientUnusable',
      message: expect.stringMatching(
        /streamable HTTP: the client factory did not finish within 300 ms; legacy HTTP\+SSE: the client factory did not finish within 300 ms/,
      ),
    });
    // Once per transport, not once per scenario.
    expect(calls).toBe(2);
  });

  it('a streamable-only client: the legacy scenarios and draws are not run, nothing fails, the legacy-only property is skipped with the reason', async () => {
    const report = await runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, model: false, runs: 3, seed: 7 });
    expect(report.abilities?.transports).toEqual(['streamable']);
    expect(report.abilities?.notes).toEqual([
      'legacy HTTP+SSE: a plain tools/call with no fault injected did not complete (the client could not connect: this client speaks streamable HTTP only), so the client is taken not to serve it: its scenarios and fast-check draws are not run',
    ]);
    expect(report.scenarios.length).toBeGreaterThan(3);
    expect(report.scenarios.filter((s) => s.transport !== 'streamable' || s.error !== undefined)).toEqual([]);
    expect(report.scenarios.filter((s) => s.source === 'fast-check').length).toBe(3);
    const cross = report.properties.find((p) => p.id === 'client-no-cross-transport-session')!;
    expect(cross).toMatchObject({ status: 'skip', runs: 0 });
    expect(cross.reason).toMatch(
      /not run: the legacy HTTP\+SSE scenarios \(the client does not serve legacy HTTP\+SSE: the client could not connect: this client speaks streamable HTTP only\)/,
    );
    expect(report.properties.filter((p) => p.status === 'fail')).toEqual([]);
    expect(clientExitStatus(report)).toBe(0);
  });

  it('a replay of a scenario over a transport the client does not serve says so, and runs nothing', async () => {
    await expect(runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, path: 'fixed:legacy-cut' })).rejects.toMatchObject({
      name: 'ClientUnusable',
      message:
        'fixed:legacy-cut runs over legacy HTTP+SSE, which the client does not serve (a plain tools/call: the client could not connect: this client speaks streamable HTTP only)',
    });
    const replay = await runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, path: 'fixed:resume-refused' });
    expect(replay.scenarios.map((s) => s.path)).toEqual(['fixed:resume-refused']);
  });

  it('a shrunk fast-check path printed for a one-transport client replays (it names a draw over the transports the client serves)', async () => {
    // Over both transports, seed 1 has no draw at this path: it names a shrink of a streamable-only draw.
    const replay = await runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, seed: 1, path: '0:1:1:1:2' });
    expect(replay.scenarios.map((s) => s.path)).toEqual(['0:1:1:1:2']);
    await expect(runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, seed: 1, path: '2:99:99' })).rejects.toThrow(RangeError);
  });

  it('scenarios named only over a transport the client does not serve: nothing would run, so the check cannot be done', async () => {
    await expect(runClientCheck(streamableOnly, { name: 'streamable-only', timeoutMs, scenarios: ['legacy-cut'] })).rejects.toMatchObject({
      name: 'ClientUnusable',
      message: expect.stringMatching(/^the scenarios named \(legacy-cut\) run only over transports the client does not serve \(legacy HTTP\+SSE: /),
    });
  });

  it('the probe runs one transport after the other: a client that holds one resource at a time serves both', async () => {
    let open = 0;
    const single: ClientFactory = async (options) => {
      if (open > 0) throw new Error('busy: one client at a time');
      open++;
      const inner = await correct(options);
      return { ...bind(inner), close: () => inner.close().finally(() => open--) };
    };
    const report = await runClientCheck(single, { name: 'single', timeoutMs, scenarios: ['delayed-result'] });
    expect(report.abilities?.transports).toEqual(['streamable', 'sse']);
  });

  it('a close() that never finishes is a note of the report, once', async () => {
    const hangingClose: ClientFactory = async (options) => {
      const inner = await correct(options);
      return { ...bind(inner), close: () => inner.close().then(() => new Promise<never>(() => {})) };
    };
    const report = await runClientCheck(hangingClose, { name: 'hanging-close', timeoutMs, scenarios: ['delayed-result', 'session-expired'], closeMs: 200 });
    expect(report.abilities?.notes).toContain("the client's close() did not finish within 200 ms in 2 scenario(s)");
    expect(report.scenarios.map((s) => s.error)).toEqual([undefined, undefined]);
  });
});
