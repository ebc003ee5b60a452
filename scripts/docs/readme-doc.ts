/**
 * README.md is hand-written except its findings table (the region `<!-- generated: findings -->`),
 * which is read off what the project already states elsewhere: the model's verdicts under the
 * reference and the two incident policies (explored as docs/model.md's matrix is), the real
 * candidates' findings table in docs/candidates.md (from real runs, committed) and the Python SDK's
 * verdicts in docs/contract.md. Nothing is run but the model, so regenerating it is quick, and the
 * README cannot say what those pages no longer do.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { explore } from '../../model/explore.js';
import { invariants } from '../../model/invariants.js';
import { policies } from '../../model/policy.js';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { definitions } from '../../properties/definitions.js';
import { type Finding, readFindings } from './candidates-doc.js';
import { replaceRegion, table } from './markdown.js';
import { matrixBounds } from './model-doc.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A verdict: holds, fails (on its own, or following from another property's failure), or not judged there. */
export type Verdict = { status: 'holds' } | { status: 'fails'; followsFrom?: string } | { status: 'n/a' };

/** One column of the findings table. */
export interface Column {
  title: string;
  verdicts: Partial<Record<PropertyId, Verdict>>;
}

/** The model's verdicts under a policy, explored at the matrix bounds; properties it has no invariant for are n/a. */
export function modelColumn(policy: string): Column {
  const result = explore({ policy: policies[policy]!, bounds: matrixBounds });
  const verdicts: Partial<Record<PropertyId, Verdict>> = {};
  for (const id of propertyIds) {
    verdicts[id] = !(id in invariants) ? { status: 'n/a' } : result.violations.some((v) => v.property === id) ? { status: 'fails' } : { status: 'holds' };
  }
  return { title: `model: \`${policy}\``, verdicts };
}

/** A finding of docs/candidates.md (read by its own reader, `readFindings`) as a verdict. */
export function candidateVerdict(finding: Finding): Verdict {
  if (finding.status === 'pass') return { status: 'holds' };
  if (finding.status === 'fail') return finding.followsFrom ? { status: 'fails', followsFrom: finding.followsFrom } : { status: 'fails' };
  return { status: 'n/a' };
}

/** The columns of docs/candidates.md's findings table, one per real candidate. */
export function candidateColumns(markdown: string): Column[] {
  const { header, rows } = readFindings(markdown);
  if (header[0] !== 'property' || rows.length === 0) throw new Error('docs/candidates.md: no findings table');
  return header.slice(1).map((title, c) => ({
    title,
    verdicts: Object.fromEntries(rows.map((row) => [row.property, candidateVerdict(row.findings[c]!)])),
  }));
}

/**
 * The Python SDK's column, from docs/contract.md's table under "### What the check finds": its
 * first cell names one or more properties (in backquotes), its third starts with the verdict
 * (`**fail**` or `pass`). Every property must be named exactly once.
 */
export function pythonColumn(markdown: string): Column {
  const lines = markdown.split('\n');
  const section = lines.indexOf('### What the check finds');
  const title = /official\s+Python SDK, `mcp` ([\d.]+)/.exec(markdown)?.[1];
  if (section < 0 || !title) throw new Error('docs/contract.md: no "### What the check finds" section for the Python SDK');
  const start = lines.findIndex((l, i) => i > section && l.startsWith('| property |'));
  const verdicts: Partial<Record<PropertyId, Verdict>> = {};
  for (let i = start + 2; start >= 0 && i < lines.length && lines[i]!.startsWith('|'); i++) {
    const [properties, , verdict] = lines[i]!.slice(1, -1).split(' | ');
    const status = verdict?.startsWith('**fail**') ? 'fails' : verdict?.startsWith('pass') ? 'holds' : undefined;
    if (!status) throw new Error(`docs/contract.md: a Python verdict this reader does not know: ${lines[i]}`);
    for (const [, id] of (properties ?? '').matchAll(/`([\w-]+)`/g)) {
      if (!propertyIds.includes(id as PropertyId) || verdicts[id as PropertyId])
        throw new Error(`docs/contract.md: Python verdict for "${id}": unknown or twice`);
      verdicts[id as PropertyId] = { status };
    }
  }
  const missing = propertyIds.filter((id) => !verdicts[id] && id !== 'standalone-delivers');
  if (missing.length > 0) throw new Error(`docs/contract.md: no Python verdict for ${missing.join(', ')}`);
  return { title: `Python \`mcp\` ${title}`, verdicts };
}

function cell(verdict: Verdict | undefined): string {
  if (!verdict || verdict.status === 'n/a') return 'n/a';
  if (verdict.status === 'holds') return 'holds';
  return verdict.followsFrom ? `fails (follows from \`${verdict.followsFrom}\`)` : '**fails**';
}

/** The findings table and the lines around it: a row per property something fails, a column per subject. */
export function findingsSection(columns: Column[]): string {
  const failing = propertyIds.filter((id) => columns.some((c) => c.verdicts[id]?.status === 'fails'));
  const holding = propertyIds.filter((id) => !failing.includes(id));
  const label = (id: PropertyId) => `[\`${id}\`](docs/properties.md#${id}-${definitions[id].level}) (${definitions[id].level.toUpperCase()})`;
  const rows = failing.map((id) => [label(id), ...columns.map((c) => cell(c.verdicts[id]))]);
  return [
    table(['property (level)', ...columns.map((c) => c.title)], rows),
    '',
    `Every other property (${holding.map((id) => `\`${id}\``).join(', ')}) holds in every column where it is judged.`,
    "Model columns: every state the policy reaches, at the bounds of [docs/model.md](docs/model.md#what-exploration-finds)'s matrix;",
    'the servers were checked over HTTP ([docs/candidates.md](docs/candidates.md), Python: [docs/contract.md](docs/contract.md)).',
    ...(rows.some((row) => row.some((c) => c.startsWith('fails ('))) ? ['A failure that "follows from" another never broke on its own.'] : []),
    ...(rows.some((row) => row.includes('n/a')) ? ['n/a: not judged there (the model judges some properties on real histories only).'] : []),
  ].join('\n');
}

/** The findings section from the committed docs and the model. */
export function readmeFindings(read: (path: string) => string = (path) => readFileSync(root + path, 'utf8')): string {
  const columns = [
    ...['reference', 'seed-000', 'seed-003'].map(modelColumn),
    ...candidateColumns(read('docs/candidates.md')),
    pythonColumn(read('docs/contract.md')),
  ];
  return findingsSection(columns);
}

/** README.md as committed, its findings region rendered afresh. */
export function readmeDoc(): string {
  const read = (path: string) => readFileSync(root + path, 'utf8');
  return replaceRegion(read('README.md'), 'findings', readmeFindings(read));
}
