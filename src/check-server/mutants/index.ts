/**
 * The catalog of mutants the property suite must kill: the reference server broken on purpose,
 * each with the properties it breaks. See `mutant.ts` for what `breaks` means.
 */
import type { Mutant } from './mutant.js';
import { mutant as bridgingSharedIdsMutant } from './bridging-shared-ids.js';
import { mutant as capabilitiesResetOnResumeMutant } from './capabilities-reset-on-resume.js';
import { mutant as defaultCapabilitiesMutant } from './default-capabilities.js';
import { mutant as deleteKeepsSessionMutant } from './delete-keeps-session.js';
import { mutant as idsReusedAcrossStreamsMutant } from './ids-reused-across-streams.js';
import { mutant as legacySessionAtMcpMutant } from './legacy-session-at-mcp.js';
import { mutant as predictableSessionIdsMutant } from './predictable-session-ids.js';
import { mutant as sessionIdsWithSpaceMutant } from './session-ids-with-space.js';
import { mutant as streamableSessionCounterMutant } from './streamable-session-counter.js';
import { mutant as replayOtherStreamsMutant } from './replay-other-streams.js';
import { mutant as replaySkipsFirstMutant } from './replay-skips-first.js';
import { mutant as rerunOnResumeMutant } from './rerun-on-resume.js';
import { mutant as resumedStandaloneSilentMutant } from './resumed-standalone-silent.js';
import { mutant as retentionPartialReplayMutant } from './retention-partial-replay.js';
import { mutant as sameMsRandomOrderMutant } from './same-ms-random-order.js';
import { mutant as seed000Mutant } from './seed-000.js';
import { mutant as seed003Mutant } from './seed-003.js';
import { mutant as sharedEventStoreMutant } from './shared-event-store.js';
import { mutant as standaloneLiveLostMutant } from './standalone-live-lost.js';
import { mutant as unknownCursor200Mutant } from './unknown-cursor-200.js';
import { mutant as unknownCursorEmptyStreamMutant } from './unknown-cursor-empty-stream.js';

export { codeMutant, policyMutant, type Mutant } from './mutant.js';
export { capabilitiesResetOnResume } from './capabilities-reset-on-resume.js';
export { deleteKeepsSession } from './delete-keeps-session.js';
export { idsReusedAcrossStreams } from './ids-reused-across-streams.js';
export { legacySessionAtMcp } from './legacy-session-at-mcp.js';
export { predictableSessionIds } from './predictable-session-ids.js';
export { sessionIdsWithSpace } from './session-ids-with-space.js';
export { streamableSessionCounter } from './streamable-session-counter.js';
export { replayOtherStreams } from './replay-other-streams.js';
export { replaySkipsFirst } from './replay-skips-first.js';
export { rerunOnResume } from './rerun-on-resume.js';
export { resumedStandaloneSilent } from './resumed-standalone-silent.js';
export { retentionPartialReplay } from './retention-partial-replay.js';
export { sameMsRandomOrder, type SameMsRandomOrderOptions } from './same-ms-random-order.js';
export { sharedEventStore } from './shared-event-store.js';
export { standaloneLiveLost } from './standalone-live-lost.js';
export { unknownCursor200 } from './unknown-cursor-200.js';

/**
 * The reference server serving another named policy of `model/policy.ts`: the two incidents and
 * every mutant policy whose fault a server shows. `cursor-on-receive` (a client knob only) and
 * `inclusive-replay-no-dedup` (its repeated event is absorbed by a deduplicating client) are
 * client mutants (`src/check-client/mutants/`): served to the reference client, they break nothing.
 */
export const policyMutants: readonly Mutant[] = Object.freeze([
  seed000Mutant,
  seed003Mutant,
  bridgingSharedIdsMutant,
  unknownCursorEmptyStreamMutant,
  defaultCapabilitiesMutant,
]);

/** The reference policy with one mutation hook distorting the machine's inputs or outputs. */
export const codeMutants: readonly Mutant[] = Object.freeze([
  replaySkipsFirstMutant,
  sameMsRandomOrderMutant,
  idsReusedAcrossStreamsMutant,
  replayOtherStreamsMutant,
  sharedEventStoreMutant,
  unknownCursor200Mutant,
  predictableSessionIdsMutant,
  deleteKeepsSessionMutant,
  legacySessionAtMcpMutant,
  capabilitiesResetOnResumeMutant,
  rerunOnResumeMutant,
  retentionPartialReplayMutant,
  resumedStandaloneSilentMutant,
  standaloneLiveLostMutant,
  streamableSessionCounterMutant,
  sessionIdsWithSpaceMutant,
]);

/** Every mutant, policy mutants first. */
export const mutants: readonly Mutant[] = Object.freeze([...policyMutants, ...codeMutants]);

/** A mutant by name, or a RangeError listing the names. */
export function mutantByName(name: string): Mutant {
  const found = mutants.find((m) => m.name === name);
  if (!found) throw new RangeError(`unknown mutant "${name}"; known mutants: ${mutants.map((m) => m.name).join(', ')}`);
  return found;
}
