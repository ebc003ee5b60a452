/**
 * docs/candidates.md reports real runs: rerun every candidate with the same seed and compare the
 * findings table (statuses and versions) with the committed one, cell by cell (`findingsChanged`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { propertyIds } from '../model/property-ids.js';
import {
  type Finding,
  type Findings,
  findingCell,
  findingsChanged,
  findingsTable,
  normalize,
  readFindingCell,
  readFindings,
  runSubjects,
} from '../scripts/docs/candidates-doc.js';

test('docs/candidates.md matches what the candidates do now (run npm run docs if not)', async () => {
  const committed = readFindings(readFileSync(fileURLToPath(new URL('../docs/candidates.md', import.meta.url)), 'utf8'));
  const fresh = findingsTable(await runSubjects());
  expect(committed.header, 'candidates or versions changed').toEqual(fresh.header);
  expect(findingsChanged(committed, fresh), 'a finding changed').toEqual([]);
}, 120_000);

test('a failure that follows from another may come or go while its cause fails; a failure on its own may not', () => {
  const header = ['property', 'x 1'];
  const table = (findings: Finding[]): Findings => ({ header, rows: findings.map((finding, i) => ({ property: `p${i}`, findings: [finding] })) });
  const [pass, fail, skip] = (['pass', 'fail', 'skip'] as const).map((status) => ({ status }));
  const follows = (id: string): Finding => ({ status: 'fail', followsFrom: id });
  const committed = table([fail!, follows('p0'), pass!, follows('p0'), skip!, pass!]);
  expect(findingsChanged(committed, table([fail!, pass!, follows('p0'), fail!, skip!, pass!]))).toEqual([]);
  // The cause passes now (p1, p2 may not come or go), or never failed (p5): every cell that changed counts.
  expect(findingsChanged(committed, table([pass!, pass!, follows('p0'), skip!, pass!, follows('p4')]))).toEqual([
    'p0 / x 1: fail -> pass',
    'p1 / x 1: fail (follows from p0) -> pass',
    'p2 / x 1: pass -> fail (follows from p0)',
    'p3 / x 1: fail (follows from p0) -> skip',
    'p4 / x 1: skip -> pass',
    'p5 / x 1: pass -> fail (follows from p4)',
  ]);
  // A property renamed or gone counts too.
  expect(findingsChanged(committed, { header, rows: [{ property: 'q0', findings: [fail!] }] })).toEqual(['q0 / property: p0 -> q0', '6 rows -> 1']);
});

test('a findings cell is read back as the finding it was written from, and only a cell so written is read', () => {
  const findings: Finding[] = [
    { status: 'pass' },
    { status: 'fail' },
    { status: 'skip' },
    { status: 'n/a' },
    { status: 'fail', followsFrom: 'no-silent-loss' },
  ];
  for (const finding of findings) expect(readFindingCell(findingCell(finding))).toEqual(finding);
  for (const cell of ['', 'passed', 'fail (follows from)', 'pass (follows from no-silent-loss)'])
    expect(() => readFindingCell(cell)).toThrow(/not a findings cell/);
  // The committed doc reads whole: a row per property, every cell a finding.
  const committed = readFindings(readFileSync(fileURLToPath(new URL('../docs/candidates.md', import.meta.url)), 'utf8'));
  expect(committed.rows.map((row) => row.property)).toEqual([...propertyIds]);
  expect(committed.rows.every((row) => row.findings.length === committed.header.length - 1)).toBe(true);
});

test('placeholders hide what differs run to run, and nothing else', () => {
  expect(normalize('session 3a13e747-6331-4001-90ef-cdb6927759e9 and 93cb5b6c-60ce-4dbd-b967-3c003a1c3972_1796015377971_nu4m9jsx')).toBe(
    'session <session> and <event>',
  );
  expect(normalize('Last-Event-ID sse:8c01d466-e4 of 6221bf-700-c1 within 99.99 ms')).toBe('Last-Event-ID <event> of <label c1> within the bound');
  expect(normalize('notification 2 of c1')).toBe('notification 2 of c1');
});
