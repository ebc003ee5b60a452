/**
 * What issue 23 found wrong in the hand-written and generated docs, checked against the model and
 * the spec sentences they rest on: docs/README.md's account of loss, of the safe variants and of the
 * 2026-07-28 revision; docs/spec-proposals.md's scope, links, proposals 1, 2, 3 and 6.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { defaultBounds } from '../model/bounds.js';
import { explore } from '../model/explore.js';
import { mutants } from '../model/policy.js';
import { getStreamOr405 } from '../properties/spec-sentences.js';
import { sep1699, specIssue1939 } from '../scripts/docs/spec-proposals-doc.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(root + file, 'utf8');
const section = (md: string, heading: string) => md.slice(md.indexOf(heading), md.indexOf('\n## ', md.indexOf(heading) + 1));

test('docs/README.md §2 names every mutant that loses an event with an on-drain client, and claims no "exactly two things"', () => {
  const bounds = { ...defaultBounds, calls: 2, notifications: 1, drops: 1, resumes: 1 };
  const onDrainLosers = Object.entries(mutants)
    .filter(([, p]) => p.client.cursorAdvance === 'onDrain')
    .filter(([, p]) => explore({ policy: p, bounds }).violations.some((v) => v.property === 'no-silent-loss'))
    .map(([name]) => name);
  expect(onDrainLosers).toEqual(expect.arrayContaining(['unknown-cursor-empty-stream', 'retention-partial-replay']));
  const s2 = section(read('docs/README.md'), '## 2.');
  for (const name of onDrainLosers) expect(s2, name).toContain(`\`${name}\``);
  expect(s2).not.toContain('Loss needs exactly two things');
});

test('docs/README.md §3 says which safe variants hold vacuously, and §4 no longer carries the properties over to 2026-07-28', () => {
  const readme = read('docs/README.md');
  expect(section(readme, '## 3.')).toMatch(/`shared-event-ids`, `bridging` and `no-dedup` explore exactly the reference's states/);
  const s4 = section(readme, '## 4.');
  expect(s4).not.toContain('stalls and duplicated effects carry over');
  expect(s4).toContain('do not carry over to that era unchanged');
  expect(s4).toContain('`at-most-once-effect` and `client-no-silent-resend`');
});

test('docs/spec-proposals.md: its revisions, the SEP-1699 and issue 1939 links, the GET MUST, the expired cursor at /mcp, no invented 2024-11-05 rule, and EventSource', () => {
  const md = read('docs/spec-proposals.md');
  expect(md).toContain('target the revisions deployed today that have sessions and `Last-Event-ID` resumption: 2025-03-26 to 2025-11-25');
  expect(md).toContain('The 2026-07-28 revision removed sessions and `Last-Event-ID` resumption');
  expect(md).toContain(`[SEP-1699](${sep1699})`);
  expect(md).toContain(`[spec issue 1939](${specIssue1939})`);
  expect(sep1699).toBe('https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1699');
  expect(specIssue1939).toBe('https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1939');
  expect(section(md, '## 1.')).toContain(getStreamOr405[0]!.text);
  const p2 = section(md, '## 2.');
  expect(p2).toContain('An expired cursor at /mcp');
  expect(p2).not.toContain('client re-initializes over sse -> 200\n');
  expect(p2).not.toMatch(/resumes \S+ over sse/);
  expect(md).not.toContain('a broken `GET /sse` stream ends the session');
  expect(section(md, '## 6.')).toContain('A browser `EventSource` client cannot meet this');
});
