import { describe, expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { reference, seed000 } from '../../model/policy.js';
import { formatTrace, replay } from '../../model/trace.js';
import type { WorldStep } from '../../model/world-types.js';

const path: WorldStep[] = [
  { type: 'INITIALIZE', transport: 'sse' },
  { type: 'CALL', unsolicited: false },
  { type: 'SEND', stream: 'l0' },
  { type: 'RECEIVE', stream: 'l0' },
  { type: 'DROP', stream: 'l0' },
  { type: 'RESUME', stream: 'l0', via: 'other', cursor: 'own' },
];

describe('traces', () => {
  test('numbered steps, each with what the server, the wire and the client hold', () => {
    const text = formatTrace(replay(seed000, defaultBounds, path));
    const lines = text.split('\n');
    expect(lines).toHaveLength(path.length * 4);
    expect(lines[0]).toBe(' 1. client initializes over sse -> 200');
    expect(lines[1]).toMatch(/^ {4}server: session-1 active via sse/);
    expect(lines[2]).toBe('    wire:   empty');
    expect(lines[3]).toMatch(/^ {4}client: via sse: l0 cursor s1-e1/);
    expect(text).toContain(' 5. connection of l0 drops (unclean: 1 frame(s) in flight or undrained lost)');
    expect(text).toContain(' 6. client resumes l0 by migrating to streamable with Last-Event-ID s1-e2 -> 200, replays []');
  });

  test('the same steps under the reference end in a 404 for the migration', () => {
    const steps = replay(reference, defaultBounds, path);
    expect(steps.at(-1)!.answer).toBe('404 session not found for this transport');
    expect(steps.at(-1)!.world.client.phase).toBe('mustReinitialize');
  });

  test('a step that is not enabled is reported, not silently skipped', () => {
    expect(() => replay(reference, defaultBounds, [{ type: 'SEND', stream: 'l0' }])).toThrow(/step 1 .* is not enabled/);
  });
});
