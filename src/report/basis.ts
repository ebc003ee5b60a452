/**
 * A property's level and the spec text it rests on, as the reports print them: the level tag
 * beside a status, and the "why this is required" lines under a failure. Pure: no I/O.
 */
import { levels, revisions, type Level, type SpecQuote } from '../../properties/definition.js';
import type { ResultBasis } from '../../properties/definitions.js';

/** The level as a tag: `[MUST]`, `[DERIVED]`, `[SHOULD]`, `[POLICY]`. */
export function levelTag(level: Level): string {
  return `[${level.toUpperCase()}]`;
}

/** Width of the widest tag, so a column of tags lines up. */
export const levelTagWidth = Math.max(...levels.map((l) => levelTag(l).length));

/** What a level means, in a few words. */
export function levelMeaning(level: Level): string {
  switch (level) {
    case 'must':
      return 'a MUST of the MCP specification';
    case 'derived':
      return 'follows from a MUST of the MCP specification (counts as MUST)';
    case 'should':
      return 'a SHOULD of the MCP specification';
    case 'policy':
      return "this project's rule where the MCP specification is silent";
  }
}

/** The quotes of the newest revision that has any: what a report shows (docs show every revision). */
export function newestQuotes(basis: ResultBasis): SpecQuote[] {
  for (const revision of [...revisions].reverse()) {
    const quotes = basis.quotes.filter((q) => q.revision === revision);
    if (quotes.length > 0) return quotes;
  }
  return [];
}

/** A quote's source: `2025-11-25, Resumability and Redelivery: URL`. */
function quoteSource(quote: SpecQuote): string {
  return `${quote.revision}${quote.section ? `, ${quote.section}` : ''}: ${quote.url}`;
}

/** Where a failure is graded below its property (`basis.weaker` at `level`): which failures, and why. */
export function gradedLine(level: Level, basis: ResultBasis): string | undefined {
  if (!basis.weaker || basis.weaker.level !== level) return undefined;
  return `Graded ${level.toUpperCase()} here, below the property's level: ${basis.weaker.when}. ${basis.weaker.why}`;
}

/**
 * Why a property is required, as plain lines: the level and what it means, the newest revision's
 * quotes (each `"text" (source)`), then how the level follows (`derivation`) or why this project
 * requires it (`rationale`), and the seed claims behind it.
 */
export function whyLines(level: Level, basis: ResultBasis): string[] {
  const lines = [`${level.toUpperCase()}: ${levelMeaning(level)}.`];
  for (const quote of newestQuotes(basis)) lines.push(`"${quote.text.replace(/\n/g, ' ')}" (${quoteSource(quote)})`);
  if (basis.derivation) lines.push(`How it follows: ${basis.derivation}`);
  if (basis.rationale) lines.push(`Why this project requires it: ${basis.rationale}`);
  const graded = gradedLine(level, basis);
  if (graded) lines.push(graded);
  if (basis.claims && basis.claims.length > 0)
    lines.push(`Seed claims: ${basis.claims.join(', ')} (what the incident write-ups claim that this bears on, judged in docs/claims.md)`);
  return lines;
}
