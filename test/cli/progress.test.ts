/**
 * The check's progress on stderr, rendered from the suite's events with a fake clock: a live line
 * per phase on a terminal, sparse plain lines off one, nothing with --quiet.
 */
import { describe, expect, test } from 'vitest';
import type { PropertyId } from '../../model/property-ids.js';
import startSdk from '../../src/check-server/candidates/sdk.js';
import { progressRenderer, progressText } from '../../src/cli/progress.js';
import { runSuite } from '../../src/check-server/run-suite.js';
import type { SuiteProgress } from '../../src/check-server/types.js';

/** Events of a small check: 2 probes, 3 coverage scenarios, 4 interleavings, one 1 s apart each. */
function events(): Array<[number, SuiteProgress]> {
  const out: Array<[number, SuiteProgress]> = [];
  let scenarios = 0;
  const phases: Array<[SuiteProgress['phase'], number]> = [
    ['probes', 2],
    ['coverage', 3],
    ['interleavings', 4],
  ];
  for (const [phase, total] of phases) {
    for (let done = 1; done <= total; done++) {
      scenarios++;
      const broke: PropertyId[] = phase === 'coverage' && done === 2 ? ['no-silent-loss'] : [];
      out.push([scenarios * 1000, { scenarios, phase, done, total, elapsedMs: scenarios * 1000, broke }]);
    }
  }
  return out;
}

function render(tty: boolean, quiet = false, intervalMs = 2500): string {
  let text = '';
  let clock = 0;
  const progress = progressRenderer({ write: (t) => void (text += t), tty, intervalMs, now: () => clock }, quiet);
  progress.start('checking http://127.0.0.1:1/mcp: probing both transports');
  for (const [at, event] of events()) {
    clock = at;
    progress.update(event);
  }
  progress.done();
  return text;
}

describe('progress on stderr', () => {
  test('off a terminal: plain lines, each phase first and last, and one every interval between', () => {
    expect(render(false).split('\n')).toEqual([
      'checking http://127.0.0.1:1/mcp: probing both transports',
      'probes 1/2 (1.0 s)',
      'probes 2/2 (2.0 s)',
      'coverage 1/3 (3.0 s)',
      'coverage 3/3 (5.0 s; 1 property broken so far)',
      'interleavings 1/4 (6.0 s; 1 property broken so far)',
      'interleavings 4/4 (9.0 s; 1 property broken so far)',
      '',
    ]);
    // 3 s between the first and the last interleaving, a line every 2.5 s: one more line in between.
    expect(render(false, false, 1500)).toContain('interleavings 3/4 (8.0 s; 1 property broken so far)\n');
  });

  test('on a terminal: one line per phase rewritten in place, kept when the phase ends, no control codes left open', () => {
    const text = render(true);
    const kept = text.split('\n').map((line) => line.split('\r\x1b[K').at(-1));
    expect(kept).toEqual([
      'checking http://127.0.0.1:1/mcp: probing both transports',
      'probes 2/2 (2.0 s)',
      'coverage 3/3 (5.0 s; 1 property broken so far)',
      'interleavings 4/4 (9.0 s; 1 property broken so far)',
      '',
    ]);
    expect(text).toContain('\r\x1b[Kcoverage 2/3 (4.0 s; 1 property broken so far)');
  });

  test('--quiet: nothing', () => {
    expect(render(true, true)).toBe('');
    expect(render(false, true)).toBe('');
  });

  test('waits that ran their full bound are counted per phase: where the time of a slow phase went', () => {
    let text = '';
    const progress = progressRenderer({ write: (t) => void (text += t), tty: false, intervalMs: 0, now: () => 0 });
    progress.update({ phase: 'probes', done: 1, total: 2, elapsedMs: 2100, broke: [], waitsRanOut: 1 });
    progress.update({ phase: 'probes', done: 2, total: 2, elapsedMs: 6300, broke: [], waitsRanOut: 2 });
    progress.update({ phase: 'coverage', done: 1, total: 1, elapsedMs: 6400, broke: [], waitsRanOut: 0 });
    expect(text.split('\n')).toEqual([
      'probes 1/2 (2.1 s; 1 wait ran the full --timeout: a stream kept open with nothing more sent is read that long)',
      'probes 2/2 (6.3 s; 3 waits ran the full --timeout: a stream kept open with nothing more sent is read that long)',
      'coverage 1/1 (6.4 s)',
      '',
    ]);
    expect(progressText({ phase: 'probes', done: 1, total: 1, elapsedMs: 100, broke: [] }, 0)).toBe('probes 1/1 (0.1 s)');
  });

  test('the SDK keeps a resumed stream open after its replay: the probes say their waits ran out', async () => {
    const running = await startSdk();
    try {
      const events: SuiteProgress[] = [];
      await runSuite({ name: 'sdk', url: running.url }, { runs: 0, coverage: false, seed: 1, timeoutMs: 2000, onProgress: (p) => events.push(p) });
      expect(events.every((e) => e.phase === 'probes' && typeof e.waitsRanOut === 'number')).toBe(true);
      expect(events.reduce((n, e) => n + e.waitsRanOut!, 0)).toBeGreaterThan(0);
    } finally {
      await running.stop();
    }
  }, 60_000);
});
