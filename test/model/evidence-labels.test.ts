/**
 * Issue 23's evidence items: proposal 2's expired cursor is the client's own cursor at /mcp, trimmed
 * from a bounded log (not a garbage cursor over the legacy transport); evidence resting on this
 * project's legacy-resume extension is labelled; safe variants that explore exactly the
 * reference's states are said to hold vacuously, and explored again where bridging differs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { expiredCursorCost } from '../../model/claims/expired-cursor.js';
import { legacyResumeLabel, restsOnLegacyResume } from '../../model/claims/legacy-resume.js';
import { reference } from '../../model/policy.js';
import { sessionContext } from '../../model/session-step.js';
import { replay } from '../../model/trace.js';
import type { WorldMessage, WorldStep } from '../../model/world-types.js';
import { garbageCursor } from '../../model/world.js';
import { vacuousVariants } from '../../scripts/docs/model-doc.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('proposal 2: an expired cursor at /mcp, its event trimmed from the bounded log, answered 404 on a live session', () => {
  const { abandoned, rerun } = expiredCursorCost();
  for (const t of [abandoned!, rerun!]) {
    expect(t.policy.server.logRetention).toBe('bounded');
    expect(t.path.some((s) => s.type === 'TRIM')).toBe(true);
    expect(restsOnLegacyResume(t)).toBe(false);
    const end = replay(t.policy, t.bounds, t.path).at(-1)!.world;
    const first = sessionContext<WorldMessage>(end.sessions[0]!);
    expect(first.transport).toBe('streamable');
    const refused = first.resumes.find((r) => r.outcome === 'rejected')!;
    expect(refused).toMatchObject({ transport: 'streamable', crossTransport: false });
    expect(refused.lastEventId).not.toBe(garbageCursor);
    expect(end.sessions[0]!.value).toBe('active');
  }
  expect(rerun!.path.length).toBeGreaterThan(abandoned!.path.length);
});

test('a trace that resumes over the legacy transport rests on the extension; one at /mcp does not', () => {
  const bounds = { ...defaultBounds, calls: 1, notifications: 1, drops: 1, resumes: 1 };
  const path = (transport: 'sse' | 'streamable', stream: string): WorldStep[] => [
    { type: 'INITIALIZE', transport },
    { type: 'CALL', unsolicited: false },
    { type: 'DROP', stream },
    { type: 'RESUME', stream, via: 'same', cursor: 'own' },
  ];
  const legacy = { title: '', policy: reference, bounds, path: path('sse', 'l0') };
  const streamable = { title: '', policy: reference, bounds, path: path('streamable', 'r0') };
  // Both paths are valid steps of the model.
  expect(replay(legacy.policy, bounds, legacy.path)).toHaveLength(4);
  expect(replay(streamable.policy, bounds, streamable.path)).toHaveLength(4);
  expect(restsOnLegacyResume(legacy)).toBe(true);
  expect(restsOnLegacyResume(streamable)).toBe(false);
  // The generated docs carry the label where it applies.
  expect(readFileSync(`${root}docs/claims.md`, 'utf8')).toContain(legacyResumeLabel);
});

test("bridging and shared-event-ids explore exactly the reference's states at the matrix bounds; with a move, bridging differs and breaks the rule's own invariant", () => {
  const { names, withMove } = vacuousVariants({ ...defaultBounds, calls: 2, notifications: 1, drops: 1, resumes: 1 });
  expect(names).toEqual(expect.arrayContaining(['bridging', 'shared-event-ids']));
  const row = (name: string) => withMove.find(([n]) => n === name)!;
  const [, bridgingStates, referenceStates, bridgingBroken] = row('bridging');
  expect(bridgingStates).toBeGreaterThan(referenceStates);
  expect(bridgingBroken.map((b) => b.split(' ')[0])).toEqual(['no-cross-transport-resume']);
  // Shared IDs without bridging: no cursor crosses transports, so still the reference's states.
  expect(row('shared-event-ids').slice(1, 3)).toEqual([referenceStates, referenceStates]);
  expect(readFileSync(`${root}docs/model.md`, 'utf8')).toContain('hold there vacuously: ');
});
