/** The generated docs: file path (from the repository root) to its renderer. */
import { claimsDoc } from './claims-doc.js';
import { modelDoc } from './model-doc.js';

export const generatedDocs: Record<string, () => string | Promise<string>> = {
  'docs/model.md': modelDoc,
  'docs/claims.md': claimsDoc,
};
