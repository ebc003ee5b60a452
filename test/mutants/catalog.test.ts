/**
 * The catalog: every mutant is well formed, starts as an adapter and serves a session; the policy
 * mutants are exactly the model's named incidents and mutants, and their `breaks` is what
 * exhaustive exploration of the model finds for their server knobs with the reference client.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { mutants as mutantPolicies, policies, reference } from '../../model/policy.js';
import { propertyIds } from '../../model/property-ids.js';
import { acceptsConnections } from '../../src/check-server/candidates/adapter.js';
import startReferenceAdapter, { projectVersion } from '../../src/check-server/candidates/reference.js';
import { CheckClient } from '../../src/wire/index.js';
import { codeMutants, mutantByName, mutants, policyMutants, type Mutant } from '../../src/check-server/mutants/index.js';
import { createReferenceServer, noMutation } from '../../src/reference/index.js';

/**
 * Mutant policies of the model whose fault only a client shows: served to the reference client they
 * break nothing, so they are not server mutants (the client catalog, `src/check-client/mutants/`, has
 * `cursor-on-receive`; `inclusive-replay-no-dedup` is a server knob plus `no-dedup` there).
 */
const clientSidePolicies = ['inclusive-replay-no-dedup', 'cursor-on-receive'];
/** Modules of `src/check-server/mutants/` that are not mutants. */
const notMutants = ['index.ts', 'mutant.ts', 'found.ts', 'standalone-streams.ts'];

describe('shape', () => {
  test("names are unique, one file each, and the file default-exports the mutant's start", async () => {
    const names = mutants.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    const files = readdirSync(new URL('../../src/check-server/mutants/', import.meta.url)).filter((f) => f.endsWith('.ts') && !notMutants.includes(f));
    expect(files.map((f) => f.slice(0, -3)).sort()).toEqual([...names].sort());
    for (const m of mutants) {
      const module = (await import(`../../src/check-server/mutants/${m.name}.ts`)) as { default: unknown; mutant: Mutant };
      expect(module.mutant).toBe(m);
      expect(module.default).toBe(m.start);
      expect(mutantByName(m.name)).toBe(m);
    }
    expect(() => mutantByName('no-such-mutant')).toThrow(/known mutants: seed-000/);
  });

  test.each(mutants.map((m) => [m.name, m] as const))('%s: one-line description, known property IDs', (_, m) => {
    expect(m.description.length).toBeGreaterThan(20);
    expect(m.description).not.toMatch(/\n/);
    for (const id of m.breaks) expect(propertyIds).toContain(id);
    expect(new Set(m.breaks).size).toBe(m.breaks.length);
  });

  test('policy mutants: the two incidents and every mutant policy of the model a server shows', () => {
    // A mutant policy whose knob the reference server takes as an option rather than as a policy
    // (log retention) is served as a code mutant of the same name.
    const asCode = codeMutants.map((m) => m.name);
    const serverSide = Object.keys(mutantPolicies).filter((name) => !clientSidePolicies.includes(name) && !asCode.includes(name));
    for (const name of clientSidePolicies) expect(Object.keys(mutantPolicies)).toContain(name);
    expect(policyMutants.map((m) => m.name)).toEqual(['seed-000', 'seed-003', ...serverSide]);
    expect(policyMutants.every((m) => m.kind === 'policy')).toBe(true);
  });

  test('code mutants: the sixteen the suite must kill, each breaking something', () => {
    expect(codeMutants.map((m) => m.name)).toEqual([
      'replay-skips-first',
      'same-ms-random-order',
      'ids-reused-across-streams',
      'replay-other-streams',
      'shared-event-store',
      'unknown-cursor-200',
      'predictable-session-ids',
      'delete-keeps-session',
      'legacy-session-at-mcp',
      'capabilities-reset-on-resume',
      'rerun-on-resume',
      'retention-partial-replay',
      'resumed-standalone-silent',
      'standalone-live-lost',
      'streamable-session-counter',
      'session-ids-with-space',
    ]);
    for (const m of codeMutants) {
      expect(m.kind).toBe('code');
      expect(m.breaks.length).toBeGreaterThan(0);
    }
  });
});

describe('policy mutants break what the model says they break, with the reference client', () => {
  const bounds = parseBounds('calls=2,notifications=1,drops=1,resumes=1');
  test.each(policyMutants.map((m) => [m.name, m] as const))('%s', (name, m) => {
    const served = { server: policies[name]!.server, client: reference.client };
    const found = explore({ policy: served, bounds }).violations.map((v) => v.property);
    expect([...m.breaks].sort()).toEqual([...found].sort());
  });

  // What the model's exploration finds for these with the reference client is why they left the
  // server catalog: nothing (test/suite/mutant-catalog.ts shows the suite agrees for the others).
  test.each(clientSidePolicies.map((name) => [name] as const))('%s: served to the reference client, it breaks nothing', (name) => {
    const served = { server: policies[name]!.server, client: reference.client };
    expect(explore({ policy: served, bounds }).violations).toEqual([]);
  });
});

describe('adapters', () => {
  async function initializes(url: string): Promise<boolean> {
    const c = new CheckClient({ baseUrl: url, timeoutMs: 3000 });
    try {
      const streamable = await c.initialize();
      const legacy = await c.initialize({ transport: 'sse' });
      return streamable.ok && legacy.ok;
    } finally {
      c.close();
    }
  }

  test('reference: named reference, the project version, serves both transports, stops', async () => {
    const candidate = await startReferenceAdapter();
    try {
      expect(candidate).toMatchObject({ name: 'reference', version: projectVersion() });
      expect(projectVersion()).toMatch(/^\d+\.\d+\.\d+/);
      expect(await initializes(candidate.url)).toBe(true);
    } finally {
      await candidate.stop();
    }
    expect(await acceptsConnections(Number(new URL(candidate.url).port))).toBe(false);
    await candidate.stop(); // idempotent
  });

  test.each(mutants.map((m) => [m.name, m] as const))('%s starts, serves both transports and stops', async (name, m) => {
    const candidate = await m.start();
    try {
      expect(candidate.name).toBe(`mutant ${name}`);
      expect(candidate.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await initializes(candidate.url)).toBe(true);
    } finally {
      await candidate.stop();
    }
    expect(await acceptsConnections(Number(new URL(candidate.url).port))).toBe(false);
  });

  test('without a mutation the server reports noMutation', async () => {
    const server = await createReferenceServer();
    try {
      expect(server.mutation).toBe(noMutation);
    } finally {
      await server.close();
    }
  });
});

describe('every property', () => {
  test('is broken by some server mutant: each property is shown to fail on a mutant (and to pass on the reference, test/suite/reference.test.ts)', () => {
    const broken = new Set(mutants.flatMap((m) => m.breaks));
    expect(propertyIds.filter((id) => !broken.has(id))).toEqual([]);
  });
});
