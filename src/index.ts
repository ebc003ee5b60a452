/**
 * The library API of mcp-resume-spec (`import … from 'mcp-resume-spec'`): check a candidate from
 * code, serve the reference server, render reports. The fixture tools for an SDK server are in
 * `mcp-resume-spec/fixtures` (it needs `@modelcontextprotocol/sdk`, which this entry does not).
 */
export { runSuite } from './check-server/run-suite.js';
export type {
  CandidateAbilities,
  CandidateTarget,
  ClientSettings,
  Counterexample,
  CoverageReport,
  Divergence,
  PropertyResult,
  RootCause,
  SuiteOptions,
  SuiteProgress,
  SuiteReport,
} from './check-server/types.js';
export type { RunningCandidate, StartCandidate } from './check-server/candidates/adapter.js';
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './reference/index.js';
export { propertyIds, type PropertyId } from '../model/property-ids.js';
export type { Status } from '../properties/judgement.js';
export type { Level } from '../properties/definition.js';
export { renderText, type TextReportOptions } from './report/text.js';
export { errorJsonReport, jsonReport, renderJson, reportSchemaVersion, type CheckStatus, type JsonReport, type JsonReportContext } from './report/json.js';
export { renderJunit, renderJunitError } from './report/junit.js';
export { renderMarkdown, type MarkdownReportOptions } from './report/markdown.js';
export { runClientCheck, type ClientCheckOptions } from './check-client/run.js';
export { ClientUnusable, type ClientAbilities } from './check-client/abilities.js';
export { builtInClientFactory } from './check-client/built-in.js';
export type { ClientFactory, ClientFactoryOptions, ClientUnderTest } from './check-client/adapters/contract.js';
export type { ClientReport, ClientPropertyResult, ClientCounterexample } from './check-client/report.js';
