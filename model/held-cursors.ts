/**
 * The model's shortest violations when the client presents only cursors it holds (its own or an
 * earlier session's, never a made-up one). The judges count no loss, stall or second run after a
 * made-up cursor (the checker's probe, `HistoryView.isCursorProbe`), so where the model's shortest
 * violation of one of those presents a made-up cursor, this is the shortest a check can show.
 */
import { violatedInvariants } from './invariants.js';
import type { PropertyId } from './property-ids.js';
import { worldKey } from './world-key.js';
import { enabledSteps } from './world-steps.js';
import type { World, WorldInput, WorldStep } from './world-types.js';
import { initialWorld, step } from './world.js';

/**
 * Breadth first from the initial world over `steps` (the model's enabled steps unless told, e.g.
 * the ones a checker can drive) less resumes with a made-up cursor: per property, the length of
 * its shortest violation.
 */
export function shortestWithHeldCursors(input: WorldInput, steps: (world: World) => WorldStep[] = enabledSteps): Map<PropertyId, number> {
  const found = new Map<PropertyId, number>();
  let frontier = [initialWorld(input)];
  const seen = new Set(frontier.map(worldKey));
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: World[] = [];
    for (const world of frontier) {
      for (const s of steps(world)) {
        if (s.type === 'RESUME' && s.cursor === 'garbage') continue;
        const after = step(world, s);
        const key = worldKey(after);
        if (seen.has(key)) continue;
        seen.add(key);
        for (const v of violatedInvariants(after)) if (!found.has(v.property)) found.set(v.property, depth);
        next.push(after);
      }
    }
    frontier = next;
  }
  return found;
}
