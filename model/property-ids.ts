/**
 * The properties, by stable ID. Reports, docs and tests use these IDs; each has one judge of
 * recorded histories in `properties/` and, where it applies to model states, one invariant here.
 */

export const propertyIds = [
  'no-silent-loss',
  'no-cross-transport-resume',
  'unknown-cursor-rejected',
  'no-cross-stream-replay',
  'no-cross-session-replay',
  'event-ids-unique',
  'order-preserved',
  'capabilities-honoured',
  'at-most-once-effect',
  'no-silent-stall',
  'session-ids-visible-ascii',
  'session-ids-unguessable',
  'terminated-session-404',
  'replay-has-no-gap',
  'standalone-delivers',
] as const;

export type PropertyId = (typeof propertyIds)[number];

/**
 * Properties with no invariant: about the bytes of real IDs (the model's IDs are abstract), or
 * about a connected stream's delivery (the model's server writes every frame it sends).
 */
export const historyOnlyProperties: readonly PropertyId[] = ['session-ids-visible-ascii', 'session-ids-unguessable', 'standalone-delivers'];
