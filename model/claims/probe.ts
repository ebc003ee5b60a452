/**
 * Small exploration helpers the claims share: explore a policy within bounds and ask which
 * signatures some reachable world satisfies.
 */
import type { Bounds } from '../bounds.js';
import { defaultBounds } from '../bounds.js';
import { explore, type ExploreResult } from '../explore.js';
import type { Policy } from '../policy.js';
import type { World } from '../world-types.js';

/** Bounds small enough to explore a whole lattice, large enough for every incident to show. */
export const claimBounds: Bounds = {
  ...defaultBounds,
  calls: 1,
  notifications: 2,
  drops: 1,
  resumes: 1,
  reinitializes: 0,
  retries: 0,
  deletes: 0,
  migrations: 1,
  foreignCursors: 0,
  moves: 0,
  unsolicited: 0,
  inFlight: 1,
  undrained: 2,
  unclean: 1,
};

/** Explores and reports, per signature, whether a reachable world satisfies it. */
export function probe(
  policy: Policy,
  bounds: Bounds,
  signatures: Record<string, (world: World) => boolean>,
): { found: Record<string, boolean>; result: ExploreResult } {
  const result = explore({ policy, bounds, signatures });
  const found: Record<string, boolean> = {};
  for (const name of Object.keys(signatures)) found[name] = name in result.matches;
  return { found, result };
}
