/**
 * The generated docs: file path (from the repository root) to its renderer. `exact` docs are
 * compared whole in the tests; docs/candidates.md and docs/client-findings.md come from real
 * runs, whose traces vary in detail, so they are compared by their findings (`findings`: the
 * tables test/candidates-doc.test.ts and test/client-check/clients.test.ts compare). README.md is
 * generated only in its findings region (scripts/docs/readme-doc.ts); the rest is kept as written.
 */
import { candidatesDoc, findingsChanged, readFindings } from './candidates-doc.js';
import { claimsDoc } from './claims-doc.js';
import { cliDoc } from './cli-doc.js';
import { clientFindingsDoc, readClientFindings } from './client-findings-doc.js';
import { modelDoc } from './model-doc.js';
import { specProposalsDoc } from './spec-proposals-doc.js';
import { propertiesDoc } from './properties-doc.js';
import { readmeDoc } from './readme-doc.js';
import { reportSchemaDoc } from './report-schema-doc.js';

export interface GeneratedDoc {
  render: () => string | Promise<string>;
  exact: boolean;
  /** For a doc that is not `exact`: what must not change, read out of its text. */
  findings?: (markdown: string) => unknown;
  /** How findings are compared, where not as equal JSON: the changes that count (none: the same findings). */
  changes?: (current: string, fresh: string) => string[];
}

export const generatedDocs: Record<string, GeneratedDoc> = {
  'docs/model.md': { render: modelDoc, exact: true },
  'docs/claims.md': { render: claimsDoc, exact: true },
  'docs/spec-proposals.md': { render: specProposalsDoc, exact: true },
  'docs/properties.md': { render: propertiesDoc, exact: true },
  // As test/candidates-doc.test.ts compares them: a consequence may come or go while its cause fails.
  'docs/candidates.md': {
    render: candidatesDoc,
    exact: false,
    findings: readFindings,
    changes: (current, fresh) => findingsChanged(readFindings(current), readFindings(fresh)),
  },
  'docs/client-findings.md': {
    render: clientFindingsDoc,
    exact: false,
    findings: (markdown) => [readClientFindings(markdown), readClientFindings(markdown, 'mutant')],
  },
  'report-schema.json': { render: reportSchemaDoc, exact: true },
  // The commands' own --help texts, word for word.
  'docs/cli.md': { render: cliDoc, exact: true },
  // Hand-written but for its findings region, read off docs/candidates.md and docs/contract.md: last, after those.
  'README.md': { render: readmeDoc, exact: true },
};
