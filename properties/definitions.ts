/**
 * Every property's definition (statement, level, quoted basis), one file per property beside its
 * judge. The one source of the statements: reports and docs read them here.
 */
import type { PropertyId } from '../model/property-ids.js';
import type { Level, PropertyDefinition } from './definition.js';
import { definition as atMostOnceEffect } from './judges/at-most-once-effect.basis.js';
import { definition as capabilitiesHonoured } from './judges/capabilities-honoured.basis.js';
import { definition as eventIdsUnique } from './judges/event-ids-unique.basis.js';
import { definition as noCrossSessionReplay } from './judges/no-cross-session-replay.basis.js';
import { definition as noCrossStreamReplay } from './judges/no-cross-stream-replay.basis.js';
import { definition as noCrossTransportResume } from './judges/no-cross-transport-resume.basis.js';
import { definition as noSilentLoss } from './judges/no-silent-loss.basis.js';
import { definition as noSilentStall } from './judges/no-silent-stall.basis.js';
import { definition as orderPreserved } from './judges/order-preserved.basis.js';
import { definition as replayHasNoGap } from './judges/replay-has-no-gap.basis.js';
import { definition as sessionIdsUnguessable } from './judges/session-ids-unguessable.basis.js';
import { definition as sessionIdsVisibleAscii } from './judges/session-ids-visible-ascii.basis.js';
import { definition as standaloneDelivers } from './judges/standalone-delivers.basis.js';
import { definition as terminatedSession404 } from './judges/terminated-session-404.basis.js';
import { definition as unknownCursorRejected } from './judges/unknown-cursor-rejected.basis.js';

export const definitions: Record<PropertyId, PropertyDefinition> = {
  'no-silent-loss': noSilentLoss,
  'no-cross-transport-resume': noCrossTransportResume,
  'unknown-cursor-rejected': unknownCursorRejected,
  'no-cross-stream-replay': noCrossStreamReplay,
  'no-cross-session-replay': noCrossSessionReplay,
  'event-ids-unique': eventIdsUnique,
  'order-preserved': orderPreserved,
  'capabilities-honoured': capabilitiesHonoured,
  'at-most-once-effect': atMostOnceEffect,
  'no-silent-stall': noSilentStall,
  'session-ids-visible-ascii': sessionIdsVisibleAscii,
  'session-ids-unguessable': sessionIdsUnguessable,
  'terminated-session-404': terminatedSession404,
  'replay-has-no-gap': replayHasNoGap,
  'standalone-delivers': standaloneDelivers,
};

/** A property's basis as results carry it: the definition without its id and level. */
export type ResultBasis = Omit<PropertyDefinition, 'id' | 'level'>;

/** The `level` and `basis` fields of a property's result, from its definition. */
export function basisOf(id: PropertyId): { level: Level; basis: ResultBasis } {
  const { id: _id, level, ...basis } = definitions[id];
  return { level, basis };
}
