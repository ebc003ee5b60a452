/**
 * docs/properties.md: every property with its level and the specification's own sentences it
 * rests on, per protocol revision, from the definitions beside the judges
 * (`properties/judges/<id>.basis.ts`).
 */
import { propertyIds } from '../../model/property-ids.js';
import { revisions, type Level, type PropertyDefinition, type SpecQuote } from '../../properties/definition.js';
import { definitions } from '../../properties/definitions.js';
import { generatedBanner, table } from './markdown.js';

const levelNames: Record<Level, string> = { must: 'MUST', derived: 'DERIVED', should: 'SHOULD', policy: 'POLICY' };

/** Quotes with the same text and section, gathered: one blockquote, the revisions that say it listed under it. */
function gathered(quotes: readonly SpecQuote[]): Array<{ text: string; section?: string; from: SpecQuote[] }> {
  const groups: Array<{ text: string; section?: string; from: SpecQuote[] }> = [];
  for (const quote of quotes) {
    const group = groups.find((g) => g.text === quote.text && g.section === quote.section);
    if (group) group.from.push(quote);
    else groups.push({ text: quote.text, ...(quote.section ? { section: quote.section } : {}), from: [quote] });
  }
  return groups;
}

function revisionsOf(d: PropertyDefinition): string {
  return revisions.filter((r) => d.quotes.some((q) => q.revision === r)).join(', ') || 'none';
}

function section(d: PropertyDefinition): string[] {
  const out = [`## \`${d.id}\`: ${levelNames[d.level]}`, '', `*${d.statement}*`, ''];
  for (const group of gathered(d.quotes)) {
    out.push(...group.text.split('\n').map((line) => `> ${line}`), '>');
    const from = group.from.map((q) => `[${q.revision}](${q.url})${q.level && q.level !== d.level ? ` (${levelNames[q.level]} in this revision)` : ''}`);
    out.push(`> — ${group.section ? `${group.section}, ` : ''}${from.join(', ')}`, '');
  }
  for (const silence of d.silences) out.push(`- **${silence.revision}** ([spec](${silence.url})): says nothing on this. ${silence.note}`);
  if (d.silences.length > 0) out.push('');
  if (d.derivation) out.push(`**How it follows.** ${d.derivation}`, '');
  if (d.rationale) out.push(`**Why this project requires it.** ${d.rationale}`, '');
  if (d.weaker)
    out.push(
      `**Graded ${d.weaker.level.toUpperCase()} when ${d.weaker.when}.** ${d.weaker.why} A check reports the property at the level of its gravest failure.`,
      '',
    );
  if (d.claims && d.claims.length > 0) out.push(`**Seed claims.** ${d.claims.map((c) => `\`${c}\``).join(', ')} ([claims.md](claims.md))`, '');
  return out;
}

/** The document. */
export function propertiesDoc(): string {
  const ids = [...propertyIds];
  const count = (level: Level) => ids.filter((id) => definitions[id].level === level).length;
  return [
    generatedBanner('scripts/docs.ts'),
    '',
    '# The properties: levels and the spec text they rest on',
    '',
    'Every property the checker judges, with how strongly the MCP specification requires it and the',
    "specification's own sentences, per protocol revision (2024-11-05, 2025-03-26, 2025-06-18,",
    '2025-11-25), quoted from its pages on modelcontextprotocol.io as they render (markup dropped). A',
    'revision that says nothing on a property is listed as silent. The data lives beside each judge in',
    '`properties/judges/<id>.basis.ts`; every report prints the level beside the status and, under each',
    'failure, the quote of the newest revision.',
    '',
    '## What a level means',
    '',
    table(
      ['level', 'meaning', 'fails `check` at'],
      [
        ['MUST', 'a MUST or MUST NOT of the spec, quoted', '`--fail-on must`, `should`, `policy`'],
        ['DERIVED', 'follows from a quoted MUST (the definition says how); counts as MUST', '`--fail-on must`, `should`, `policy`'],
        ['SHOULD', 'a SHOULD or SHOULD NOT of the spec, quoted', '`--fail-on should`, `policy`'],
        [
          'POLICY',
          "this project's rule where the spec is silent (the definition says why, and which seed claim it comes from)",
          '`--fail-on policy` (the default)',
        ],
      ],
    ),
    '',
    `Of ${ids.length} properties: ${count('must')} MUST, ${count('derived')} DERIVED, ${count('should')} SHOULD, ${count('policy')} POLICY.`,
    'A conformant server passes every MUST and DERIVED property; put `--fail-on must` in CI to check',
    "conformance to the spec, and keep the default to hold a server to this project's recommendations.",
    '',
    table(
      ['property', 'level', 'statement', 'revisions quoted'],
      ids.map((id) => [
        `[\`${id}\`](#${id}-${definitions[id].level})`,
        levelNames[definitions[id].level],
        definitions[id].statement,
        revisionsOf(definitions[id]),
      ]),
    ),
    '',
    ...ids.flatMap((id) => section(definitions[id])),
  ]
    .join('\n')
    .replace(/\n+$/, '\n');
}
