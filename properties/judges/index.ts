/** One judge per property, by stable ID. */
import type { PropertyId } from '../../model/property-ids.js';
import type { Judge } from '../judgement.js';
import { judgeAtMostOnceEffect } from './at-most-once-effect.js';
import { judgeCapabilitiesHonoured } from './capabilities-honoured.js';
import { judgeEventIdsUnique } from './event-ids-unique.js';
import { judgeNoCrossSessionReplay } from './no-cross-session-replay.js';
import { judgeNoCrossStreamReplay } from './no-cross-stream-replay.js';
import { judgeNoCrossTransportResume } from './no-cross-transport-resume.js';
import { judgeNoSilentLoss } from './no-silent-loss.js';
import { judgeNoSilentStall } from './no-silent-stall.js';
import { judgeOrderPreserved } from './order-preserved.js';
import { judgeReplayHasNoGap } from './replay-has-no-gap.js';
import { judgeSessionIdsUnguessable } from './session-ids-unguessable.js';
import { judgeSessionIdsVisibleAscii } from './session-ids-visible-ascii.js';
import { judgeStandaloneDelivers } from './standalone-delivers.js';
import { judgeTerminatedSession404 } from './terminated-session-404.js';
import { judgeUnknownCursorRejected } from './unknown-cursor-rejected.js';

export const judges: Record<PropertyId, Judge> = {
  'no-silent-loss': judgeNoSilentLoss,
  'no-cross-transport-resume': judgeNoCrossTransportResume,
  'unknown-cursor-rejected': judgeUnknownCursorRejected,
  'no-cross-stream-replay': judgeNoCrossStreamReplay,
  'no-cross-session-replay': judgeNoCrossSessionReplay,
  'event-ids-unique': judgeEventIdsUnique,
  'order-preserved': judgeOrderPreserved,
  'capabilities-honoured': judgeCapabilitiesHonoured,
  'at-most-once-effect': judgeAtMostOnceEffect,
  'no-silent-stall': judgeNoSilentStall,
  'session-ids-visible-ascii': judgeSessionIdsVisibleAscii,
  'session-ids-unguessable': judgeSessionIdsUnguessable,
  'terminated-session-404': judgeTerminatedSession404,
  'replay-has-no-gap': judgeReplayHasNoGap,
  'standalone-delivers': judgeStandaloneDelivers,
};
