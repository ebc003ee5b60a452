/** The client properties, by stable ID (reports, docs, mutant catalogs and tests use these). */
export const clientPropertyIds = [
  'client-delivers-exactly-once',
  'client-resume-cursor-processed',
  'client-reinitializes-on-404',
  'client-no-cross-transport-session',
  'client-no-silent-resend',
  'client-bounded-wait',
] as const;

export type ClientPropertyId = (typeof clientPropertyIds)[number];
