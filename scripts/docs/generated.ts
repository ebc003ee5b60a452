/**
 * The generated docs: file path (from the repository root) to its renderer. `exact` docs are
 * compared whole in the tests; docs/candidates.md comes from real runs, whose traces vary in
 * detail, so its tests compare the findings table instead (test/candidates-doc.test.ts).
 */
import { candidatesDoc } from './candidates-doc.js';
import { claimsDoc } from './claims-doc.js';
import { clientFindingsDoc } from './client-findings-doc.js';
import { modelDoc } from './model-doc.js';
import { specProposalsDoc } from './spec-proposals-doc.js';
import { propertiesDoc } from './properties-doc.js';
import { reportSchemaDoc } from './report-schema-doc.js';

export interface GeneratedDoc {
  render: () => string | Promise<string>;
  exact: boolean;
}

export const generatedDocs: Record<string, GeneratedDoc> = {
  'docs/model.md': { render: modelDoc, exact: true },
  'docs/claims.md': { render: claimsDoc, exact: true },
  'docs/spec-proposals.md': { render: specProposalsDoc, exact: true },
  'docs/properties.md': { render: propertiesDoc, exact: true },
  'docs/candidates.md': { render: candidatesDoc, exact: false },
  'docs/client-findings.md': { render: clientFindingsDoc, exact: false },
  'report-schema.json': { render: reportSchemaDoc, exact: true },
};
