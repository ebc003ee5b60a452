/**
 * report-schema.json: the JSON report's schema (src/report/report-schema.ts) as a file, published
 * in the package as `mcp-resume-spec/report-schema.json` for validators in any language.
 */
import { reportSchema } from '../../src/report/report-schema.js';

export function reportSchemaDoc(): string {
  return `${JSON.stringify(reportSchema, null, 2)}\n`;
}
