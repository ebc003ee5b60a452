/** The statuses a correct candidate's design earns, for the no-false-positive tests (variants on the SDK, the plain server). */
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import type { Status } from '../../properties/judgement.js';
import type { SuiteReport } from '../../src/check-server/types.js';

/** Every property `pass`, except the ones named. */
export function expected(exceptions: Partial<Record<PropertyId, Status>>): Record<PropertyId, Status> {
  return Object.fromEntries(propertyIds.map((id) => [id, exceptions[id] ?? 'pass'])) as Record<PropertyId, Status>;
}

/** Each property's status in a report. */
export function statusesOf(report: SuiteReport): Record<string, Status> {
  return Object.fromEntries(report.properties.map((p) => [p.id, p.status]));
}

/** Streamable HTTP only: nothing to resume under the other transport. */
export const oneTransport = { 'no-cross-transport-resume': 'skip' } as const;

/** No event IDs at all: the replay properties have nothing to judge. */
export const noResumption = {
  'no-silent-loss': 'skip',
  'unknown-cursor-rejected': 'skip',
  'no-cross-stream-replay': 'skip',
  'no-cross-session-replay': 'skip',
  'event-ids-unique': 'skip',
  'replay-has-no-gap': 'skip',
} as const;
