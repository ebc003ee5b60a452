/**
 * Flag validation, report paths and baseline files, in-process (the CLI tests spawn the compiled
 * CLI for a few of these cases; the rest need no process).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { integerFlag, parseFlags } from '../../src/cli/args.js';
import { graverThanListed, readBaseline } from '../../src/cli/baseline.js';
import { UsageError } from '../../src/cli/command.js';
import { usageErrorLine } from '../../src/cli/main.js';
import { applyBaseline, baselineLines } from '../../src/report/baseline.js';
import { checkWritable } from '../../src/cli/output-paths.js';
import type { PropertyResult } from '../../src/check-server/types.js';
import { definitions } from '../../properties/definitions.js';

const options = { runs: { type: 'string' }, json: { type: 'boolean' } } as const;
const out = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-flags-'));

describe('flags', () => {
  test.each([
    [['--colour'], /^unknown flag --colour$/],
    [['extra'], /^unexpected argument "extra": every value follows its flag$/],
    [['--runs'], /^--runs needs a value$/],
    [['--json=yes'], /^--json takes no value$/],
    [['--runs', '--json'], /^--runs needs a value \(a value starting with "-" is written --runs=-VALUE\)$/],
    [['--json', 'report.json'], /^--json takes no value, got "report\.json"$/],
  ])('%j is a usage error: %s', (argv, message) => {
    expect(() => parseFlags(argv, options)).toThrow(message);
  });

  test("a flag the command does not have is marked as such, and the CLI's line points to --help by that mark, not by the words", () => {
    for (const argv of [['--colour'], ['extra']]) {
      const error = (() => {
        try {
          parseFlags(argv, options);
        } catch (e) {
          return e;
        }
      })() as UsageError;
      expect(error.notAFlag, argv[0]).toBe(true);
      expect(usageErrorLine('check', error)).toBe(`mcp-resume-spec check: ${error.message}; run 'mcp-resume-spec check --help' for its flags`);
    }
    expect(() => parseFlags(['--runs'], options)).toThrow(expect.objectContaining({ notAFlag: false }));
    // Worded as one, but not one: no pointer; worded otherwise, but one: the pointer.
    expect(usageErrorLine('check', new UsageError('unknown flag, says the adapter'))).toBe('mcp-resume-spec check: unknown flag, says the adapter');
    expect(usageErrorLine('check', new UsageError('--frob?', { notAFlag: true }))).toBe(
      "mcp-resume-spec check: --frob?; run 'mcp-resume-spec check --help' for its flags",
    );
    expect(usageErrorLine('check', new RangeError('runs out of range'))).toBe('mcp-resume-spec check: runs out of range');
  });

  test('--json FILE says where the JSON report goes, for a command that writes it with --out', () => {
    expect(() => parseFlags(['--json', 'report.json', '--runs', '1'], { ...options, out: { type: 'string' } })).toThrow(
      /^--json takes no value, got "report\.json": --json prints the JSON report on stdout; --out FILE writes it to a file$/,
    );
  });

  test('a negative number after a flag is its value, for the flag to judge', () => {
    expect(parseFlags(['--runs', '-5', '--json'], options)).toEqual({ runs: '-5', json: true });
    expect(() => integerFlag('runs', '-5', 200, 100_000)).toThrow('--runs must be an integer from 0 to 100000, got "-5"');
    expect(() => integerFlag('runs', 'abc', 200, 100_000)).toThrow('--runs must be an integer from 0 to 100000, got "abc"');
    expect(() => integerFlag('timeout', '0', 2000, 600_000, 1)).toThrow('--timeout must be an integer from 1 to 600000, got "0"');
    expect(() => integerFlag('runs', '1.5', 200)).toThrow(/got "1\.5"/);
    expect(integerFlag('timeout', '1', 2000, 600_000, 1)).toBe(1);
    expect(integerFlag('runs', undefined, 200)).toBe(200);
  });
});

describe('report paths, checked before the run', () => {
  test('a folder, a missing folder and a file where a folder should be are refused; a new file in a folder is fine', () => {
    writeFileSync(join(out, 'file'), '');
    expect(() => checkWritable('markdown', out)).toThrow(`--markdown: cannot write ${out}: it is a folder`);
    expect(() => checkWritable('junit', join(out, 'nope', 'x.xml'))).toThrow(/--junit: cannot write .*: the folder .*nope does not exist/);
    expect(() => checkWritable('junit', join(out, 'file', 'x.xml'))).toThrow(/is not a folder/);
    expect(() => checkWritable('junit', join(out, 'x.xml'))).not.toThrow();
    // Tried, and left as it was: nothing made, an existing file's content kept.
    expect(existsSync(join(out, 'x.xml'))).toBe(false);
    writeFileSync(join(out, 'kept.xml'), 'kept');
    checkWritable('junit', join(out, 'kept.xml'));
    expect(readFileSync(join(out, 'kept.xml'), 'utf8')).toBe('kept');
    // Permission bits would let root through; /proc takes no new files whoever asks.
    expect(() => checkWritable('junit', '/proc/report.xml')).toThrow(
      /^--junit: cannot write \/proc\/report\.xml: a file cannot be made in \/proc \(E[A-Z]+\)$/,
    );
  });
});

describe('baseline files', () => {
  const file = (name: string, text: string) => {
    const path = join(out, name);
    writeFileSync(path, text);
    return path;
  };

  test.each([
    ['not JSON', 'nope', /--baseline: .* is not JSON/],
    ['an unknown property', JSON.stringify({ baselineVersion: 1, failures: [{ id: 'no-lost-events' }] }), /lists \{"id":"no-lost-events"\}, not a property id/],
    ['no failures array', JSON.stringify({ ids: [] }), /has no "failures" array/],
    [
      'a property id of earlier versions',
      JSON.stringify({ baselineVersion: 1, failures: [{ id: 'session-ids-secure', level: 'must' }] }),
      /lists "session-ids-secure", a property of earlier versions since split into session-ids-visible-ascii \(MUST\) and session-ids-unguessable \(SHOULD\): list whichever of them fails \(check --write-baseline writes the current ids\)$/,
    ],
  ])('%s: a usage error', (name, text, message) => {
    expect(() => readBaseline(file(`${name.replace(/\W+/g, '-')}.json`, text))).toThrow(message);
  });

  test('a listed failure that now fails graver than it was written at is named: a new failure, not a known one', () => {
    const path = file('graded.json', JSON.stringify({ baselineVersion: 1, failures: [{ id: 'no-silent-loss', level: 'policy' }, 'order-preserved'] }));
    const failing = (level: 'should' | 'policy') => [
      { id: 'no-silent-loss' as const, status: 'fail', level },
      { id: 'order-preserved' as const, status: 'fail', level: 'must' as const },
    ];
    expect(graverThanListed(path, failing('should'))).toEqual([{ id: 'no-silent-loss', listed: 'policy', now: 'should' }]);
    // As written, or an entry that records no level: known.
    expect(graverThanListed(path, failing('policy'))).toEqual([]);
  });

  test('missing: a usage error naming the file', () => {
    expect(() => readBaseline(join(out, 'missing.json'))).toThrow(/--baseline: cannot read .*missing\.json: ENOENT/);
  });

  test('entries as objects or bare ids; known are the listed failures, fixed the listed passes, a skip is neither (unjudged)', () => {
    const listed = readBaseline(
      file('ok.json', JSON.stringify({ baselineVersion: 1, failures: [{ id: 'no-silent-loss', level: 'should' }, 'event-ids-unique', 'order-preserved'] })),
    );
    const result = (id: PropertyResult['id'], status: PropertyResult['status']) => ({ id, status }) as PropertyResult;
    const applied = applyBaseline('ok.json', listed, [
      result('no-silent-loss', 'fail'),
      result('event-ids-unique', 'pass'),
      result('order-preserved', 'skip'),
      result('session-ids-visible-ascii', 'fail'),
    ]);
    expect(applied).toEqual({ file: 'ok.json', known: ['no-silent-loss'], fixed: ['event-ids-unique'], unjudged: ['order-preserved'] });
  });

  test('a failure that follows from a known one is known too (it shows or not as its cause plays out), down a chain, unless it is required more strictly; one that follows from an unlisted failure is not', () => {
    const listed = new Set<PropertyResult['id']>(['no-silent-loss', 'unknown-cursor-rejected']);
    const failing = (id: PropertyResult['id'], followsFrom?: PropertyResult['id']) =>
      ({ id, status: 'fail', level: definitions[id].level, ...(followsFrom ? { followsFrom } : {}) }) as PropertyResult;
    const properties = [
      failing('no-silent-loss'),
      failing('no-silent-stall', 'no-silent-loss'),
      failing('at-most-once-effect', 'no-silent-stall'),
      // its cause is not listed
      failing('replay-has-no-gap'),
      failing('order-preserved', 'replay-has-no-gap'),
      // a policy entry does not excuse what counts as a MUST
      failing('unknown-cursor-rejected'),
      failing('no-cross-session-replay', 'unknown-cursor-rejected'),
    ];
    const applied = applyBaseline('ok.json', listed, properties);
    expect(applied.known).toEqual(['no-silent-loss', 'no-silent-stall', 'at-most-once-effect', 'unknown-cursor-rejected']);
    expect(baselineLines(applied, listed, properties)[0]).toBe(
      'baseline ok.json: 4 known failure(s) do not fail the check (no-silent-loss; no-silent-stall, not listed: it follows from no-silent-loss; at-most-once-effect, not listed: it follows from no-silent-stall; unknown-cursor-rejected)',
    );
  });
});
