/**
 * What a property rests on: how strongly the MCP specification requires it (its level) and the
 * specification's own sentences, per protocol revision, with links. One definition per property
 * lives beside its judge (`judges/<id>.basis.ts`); reports, docs and `--fail-on` read them.
 */
import type { PropertyId } from '../model/property-ids.js';

/**
 * How strongly a property is required:
 * - `must`: a MUST / MUST NOT of the spec, quoted;
 * - `derived`: follows from a quoted MUST (the definition's `derivation` says how);
 * - `should`: a SHOULD / SHOULD NOT of the spec, quoted;
 * - `policy`: this project's rule where the spec is silent (the definition's `rationale` says why).
 */
export type Level = 'must' | 'should' | 'derived' | 'policy';

/** Levels, strongest first. */
export const levels: readonly Level[] = ['must', 'derived', 'should', 'policy'];

/** The protocol revisions a definition answers for, oldest first. */
export const revisions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type Revision = (typeof revisions)[number];

/**
 * A sentence of the specification, verbatim as its page renders it (markup dropped, lines joined;
 * a `\n- ` line is one of the spec's list items). Quotes were checked word for word against the
 * pages' sources, `docs/specification/<revision>/basic/*.mdx` in modelcontextprotocol/modelcontextprotocol.
 */
export interface SpecQuote {
  revision: Revision;
  /** The page, with the section's anchor. */
  url: string;
  /** The section's heading on that page. */
  section?: string;
  text: string;
  /** The level this revision's text gives, where it differs from the definition's (e.g. SHOULD before it became MUST). */
  level?: Level;
}

/** A revision whose specification says nothing this property could rest on. */
export interface SpecSilence {
  revision: Revision;
  /** The page that would have said it. */
  url: string;
  /** What the revision lacks, in one sentence. */
  note: string;
}

/** Failures a property grades below its level: which, at what level, and why (the text the level rests on covers only the others). */
export interface WeakerFailure {
  level: Level;
  /** Which failures, in a few words. */
  when: string;
  /** Why they rest on that level. */
  why: string;
}

/** The basis of a property: everything but its id, statement and level. */
export interface PropertyBasis {
  /** The spec's sentences it rests on; for a policy, the nearest sentences the rule builds on. */
  quotes: SpecQuote[];
  /** Revisions that say nothing on it. Every revision is quoted, silent, or both never. */
  silences: SpecSilence[];
  /** For `derived` (and any level that needs a step from the quote): how the property follows from the quoted text. */
  derivation?: string;
  /** For `policy`: why this project requires it although the spec does not. */
  rationale?: string;
  /** Seed claims (docs/claims.md) behind it, e.g. `003-quiet-stream`. */
  claims?: string[];
  /** Failures graded below the property's level (a judgement of one carries that level). */
  weaker?: WeakerFailure;
}

/** One property: what it says, how strongly it is required, and on what text. */
export interface PropertyDefinition extends PropertyBasis {
  id: PropertyId;
  /** What the property says, in one sentence. */
  statement: string;
  level: Level;
}

/** The thresholds of `--fail-on`: `derived` counts as `must`. */
export type FailOn = 'must' | 'should' | 'policy';
export const failOnLevels: readonly FailOn[] = ['must', 'should', 'policy'];

const rank: Record<Level, number> = { must: 0, derived: 0, should: 1, policy: 2 };

/** Whether `a` is required more strictly than `b` (must and derived alike). */
export function stricter(a: Level, b: Level): boolean {
  return rank[a] < rank[b];
}

/**
 * Whether a failure of a property at `level` counts at threshold `failOn`: must ⊂ should ⊂ policy,
 * and `derived` counts as `must`.
 */
export function countsAt(level: Level, failOn: FailOn): boolean {
  return rank[level] <= rank[failOn];
}

/** The spec page of a revision: `https://modelcontextprotocol.io/specification/<revision>/<page>`. */
export function specUrl(revision: Revision, page: string, anchor?: string): string {
  return `https://modelcontextprotocol.io/specification/${revision}/${page}${anchor ? `#${anchor}` : ''}`;
}

/** The pages quoted, with their sections' headings and anchors. */
export const sections = {
  resumability: { page: 'basic/transports', anchor: 'resumability-and-redelivery', section: 'Resumability and Redelivery' },
  sending: { page: 'basic/transports', anchor: 'sending-messages-to-the-server', section: 'Sending Messages to the Server' },
  listening: { page: 'basic/transports', anchor: 'listening-for-messages-from-the-server', section: 'Listening for Messages from the Server' },
  multipleConnections: { page: 'basic/transports', anchor: 'multiple-connections', section: 'Multiple Connections' },
  sessionManagement: { page: 'basic/transports', anchor: 'session-management', section: 'Session Management' },
  backwardsCompatibility: { page: 'basic/transports', anchor: 'backwards-compatibility', section: 'Backwards Compatibility' },
  httpWithSse: { page: 'basic/transports', anchor: 'http-with-sse', section: 'HTTP with SSE' },
  operation: { page: 'basic/lifecycle', anchor: 'operation', section: 'Operation' },
  sessionHijacking: { page: 'basic/security_best_practices', anchor: 'session-hijacking', section: 'Session Hijacking' },
} as const;

export type Section = (typeof sections)[keyof typeof sections];

/** The same sentence quoted from several revisions' pages (their texts are identical there). */
export function quotedIn(revisionsQuoted: readonly Revision[], where: Section, text: string, level?: Level): SpecQuote[] {
  return revisionsQuoted.map((revision) => ({
    revision,
    url: specUrl(revision, where.page, where.anchor),
    section: where.section,
    text,
    ...(level ? { level } : {}),
  }));
}

/** The streamable HTTP revisions: the ones with event IDs, session IDs and resumption. */
export const streamableRevisions: readonly Revision[] = ['2025-03-26', '2025-06-18', '2025-11-25'];

/** 2024-11-05's HTTP+SSE transport: no event IDs, no `Last-Event-ID`, no session ID, no resumption. */
export function silentInLegacy(note: string): SpecSilence {
  return { revision: '2024-11-05', url: specUrl('2024-11-05', sections.httpWithSse.page, sections.httpWithSse.anchor), note };
}
