/**
 * The properties' definitions: one per property, every revision either quoted or declared silent,
 * levels backed by the quoted keyword, and the --fail-on ordering (must ⊂ should ⊂ policy, derived
 * counts as must). The quotes were checked verbatim against the spec's pages when written; here
 * their shape is checked, since the tests run offline.
 */
import { describe, expect, test } from 'vitest';
import { claims } from '../../model/claims/index.js';
import { propertyIds } from '../../model/property-ids.js';
import { countsAt, failOnLevels, levelIn, levels, revisions, stricter, type Level } from '../../properties/definition.js';
import { basisOf, definitions } from '../../properties/definitions.js';

/** The newest revision's quotes: what decides the level. */
const newest = (id: (typeof propertyIds)[number]) => definitions[id].quotes.filter((q) => q.revision === revisions[revisions.length - 1]);

describe('property definitions', () => {
  test('one per property, under its own id, with a statement', () => {
    expect(Object.keys(definitions).sort()).toEqual([...propertyIds].sort());
    for (const id of propertyIds) {
      expect(definitions[id].id).toBe(id);
      expect(definitions[id].statement.length).toBeGreaterThan(10);
    }
  });

  test.each(propertyIds)('%s: every revision is quoted or declared silent, never both', (id) => {
    const d = definitions[id];
    for (const revision of revisions) {
      const quoted = d.quotes.some((q) => q.revision === revision);
      const silent = d.silences.filter((s) => s.revision === revision);
      expect(quoted || silent.length > 0, `${id} says nothing of ${revision}`).toBe(true);
      expect(quoted && silent.length > 0, `${id} both quotes and is silent in ${revision}`).toBe(false);
      expect(silent.length).toBeLessThanOrEqual(1);
    }
    for (const s of d.silences) expect(s.note).toMatch(/\.$/);
  });

  test.each(propertyIds)('%s: quotes are the spec pages of their revision, rendered text without markup', (id) => {
    for (const q of definitions[id].quotes) {
      expect(q.url).toMatch(new RegExp(`^https://modelcontextprotocol\\.io/specification/${q.revision}/basic/[a-z_]+#[a-z-]+$`));
      expect(q.text).not.toMatch(/\*\*|`|\]\(|\s{2,}/);
    }
  });

  test.each(propertyIds)('%s: the level is backed by its basis', (id) => {
    const d = definitions[id];
    const text = newest(id)
      .map((q) => q.text)
      .join(' ');
    const keyword: Record<Level, RegExp | undefined> = { must: /\bMUST\b/, derived: /\bMUST\b/, should: /\bSHOULD\b/, policy: undefined };
    if (keyword[d.level]) expect(text, `${id} is ${d.level} but its newest quotes lack the keyword`).toMatch(keyword[d.level]!);
    if (d.level === 'derived') expect(d.derivation, `${id} is derived but says not how`).toBeDefined();
    if (d.level === 'policy') expect(d.rationale, `${id} is a policy without a reason`).toBeDefined();
    if (d.level !== 'policy') expect(d.rationale).toBeUndefined();
    // a quote that grades differently (an older SHOULD) names its level
    for (const q of d.quotes) if (q.level) expect(levels).toContain(q.level);
  });

  test("a revision whose text is weaker than the property's level is the property's `weaker` grade", () => {
    for (const d of Object.values(definitions)) {
      for (const revision of revisions) {
        const level = levelIn(d, revision);
        if (stricter(d.level, level)) expect(d.weaker?.level, `${d.id} in ${revision}`).toBe(level);
      }
    }
    expect(levelIn(definitions['capabilities-honoured'], '2025-03-26')).toBe('should');
    expect(levelIn(definitions['capabilities-honoured'], '2025-06-18')).toBe('derived');
    expect(levelIn(definitions['session-ids-unguessable'], '2025-03-26')).toBe('should');
    expect(levelIn(definitions['session-ids-visible-ascii'], '2025-03-26')).toBe('must');
  });

  test('seed claims named by a definition exist', () => {
    const known = new Set(claims.map((c) => c.id));
    for (const d of Object.values(definitions)) for (const c of d.claims ?? []) expect(known, `${d.id} cites ${c}`).toContain(c);
  });

  test('the levels this project assigns', () => {
    expect(Object.fromEntries(propertyIds.map((id) => [id, definitions[id].level]))).toEqual({
      'no-silent-loss': 'should',
      'no-cross-transport-resume': 'policy',
      'unknown-cursor-rejected': 'policy',
      'no-cross-stream-replay': 'must',
      'no-cross-session-replay': 'derived',
      'event-ids-unique': 'must',
      'order-preserved': 'policy',
      'capabilities-honoured': 'derived',
      'at-most-once-effect': 'policy',
      'no-silent-stall': 'should',
      'session-ids-visible-ascii': 'must',
      'session-ids-unguessable': 'should',
      'terminated-session-404': 'must',
      'replay-has-no-gap': 'policy',
      'standalone-delivers': 'policy',
    });
  });

  test('basisOf: the level and the definition without id and level', () => {
    const { level, basis } = basisOf('event-ids-unique');
    expect(level).toBe('must');
    expect(basis).not.toHaveProperty('id');
    expect(basis).not.toHaveProperty('level');
    expect(basis.statement).toBe(definitions['event-ids-unique'].statement);
  });
});

describe('--fail-on thresholds', () => {
  test('must ⊂ should ⊂ policy, derived counts as must', () => {
    const table = Object.fromEntries(levels.map((level) => [level, failOnLevels.filter((f) => countsAt(level, f))]));
    expect(table).toEqual({
      must: ['must', 'should', 'policy'],
      derived: ['must', 'should', 'policy'],
      should: ['should', 'policy'],
      policy: ['policy'],
    });
  });
});
