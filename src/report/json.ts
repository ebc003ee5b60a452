/**
 * The JSON report of `mcp-resume-spec check --json`, in this shape:
 * `{candidate, properties: [{id, status, runs, reason?, counterexample?: {steps, seed, path}}]}`,
 * plus each property's `level` and `basis` (statement and quoted spec text, `properties/definition.ts`)
 * and the suite's extra findings under their own keys (`counterexample.oracle` and `counterexample.trace`,
 * the steps as data; `causedBy` on a failure another one explains; `divergences`; `abilities`,
 * `coverage`, `interleavings`). Every report names the tool and its version, the schema version,
 * and the check's `status`: `pass`, `fail`, or `error` (the check could not be done: `error` says
 * why, and `properties` is empty). `report-schema.ts` describes exactly this. Pure but for reading
 * the tool's version from its package.json.
 */
import type { PropertyId } from '../../model/property-ids.js';
import type { Level } from '../../properties/definition.js';
import type { ResultBasis } from '../../properties/definitions.js';
import type { Status } from '../../properties/judgement.js';
import type { TraceStepData } from '../../model/trace-step.js';
import type { CandidateAbilities, CoverageReport, RootCause, SuiteReport } from '../check-server/types.js';
import { toolVersion } from '../version.js';
import { baselineJson } from './baseline.js';
import { divergenceLine, oracleLines, traceLines } from './findings.js';

/** The version of the report's shape; it changes when a field changes meaning or goes away. */
export const reportSchemaVersion = 2;

/** The check's outcome: what its exit status says (0 pass, 1 fail, 2 error). */
export type CheckStatus = 'pass' | 'fail' | 'error';

/** What a baseline (`--baseline FILE`) made of this check's failures. */
export interface JsonBaseline {
  /** The baseline file, as given. */
  file: string;
  /** Failures listed in the baseline: reported, but they do not fail the check. */
  known: PropertyId[];
  /** Listed failures that now pass. */
  fixed: PropertyId[];
  /** Listed properties this run judged neither way (skipped, or not run). */
  unjudged: PropertyId[];
  /** The flags that made this run judge less than a default check, if any. */
  narrowedBy?: string[];
}

/** What the check adds around the suite's report (the CLI knows it; a library caller may not). */
export interface JsonReportContext {
  /** The check's outcome (default: `fail` when a property failed, else `pass`). */
  status?: Exclude<CheckStatus, 'error'>;
  /** Wall time of the whole check, ms. */
  ms?: number;
  baseline?: JsonBaseline;
}

/** One property in the JSON report. */
export interface JsonPropertyResult {
  id: PropertyId;
  status: Status;
  /** How strongly the spec requires it: must, derived (from a MUST), should, or policy (this project's rule). */
  level: Level;
  /** Its statement and the spec's sentences it rests on, per revision. */
  basis: ResultBasis;
  runs: number;
  reason?: string;
  counterexample?: {
    steps: string[];
    seed: number;
    path: string;
    /** The model's expectation beside the candidate's answers, when they differ. */
    oracle?: string[];
    /** The steps as data (what `steps` says in words). */
    trace: TraceStepData[];
  };
  /** Another failure of the same run and step that explains this one. */
  causedBy?: RootCause;
  /** Every run that broke this property broke a property of higher precedence at the same step; this one in the reported run. */
  followsFrom?: PropertyId;
}

/** A step where the candidate left the model. */
export interface JsonDivergence {
  /** `deviates from the model at step N (...): model expects X, candidate answered Y (R runs)`. */
  message: string;
  /** The step as data, with `expected` (the model's answer) and `answer` (the candidate's). */
  step: TraceStepData;
  seed: number;
  path: string;
  runs: number;
  /** The run's steps up to the divergence, which is the last (step numbers are the run's). */
  steps: string[];
  /** The same steps as data. */
  trace: TraceStepData[];
}

/** The JSON report (its schema: `report-schema.ts`). */
export interface JsonReport {
  tool: { name: 'mcp-resume-spec'; version: string };
  schemaVersion: typeof reportSchemaVersion;
  status: CheckStatus;
  /** Why the check could not be done (with `status: "error"` only). */
  error?: string;
  /** Wall time of the whole check, ms. */
  ms?: number;
  /** The candidate; `url` is absent only from an error report whose adapter never started. */
  candidate: { name: string; version?: string; url?: string };
  properties: JsonPropertyResult[];
  abilities?: CandidateAbilities;
  coverage?: CoverageReport;
  interleavings?: { runs: number; seed: number; ms: number };
  divergences?: JsonDivergence[];
  baseline?: JsonBaseline;
}

const tool = (): JsonReport['tool'] => ({ name: 'mcp-resume-spec', version: toolVersion() });

/**
 * The JSON report as a plain object. Fields are picked one by one (not spread), so the output
 * stays exactly the documented shape even if the suite's types grow.
 *
 * @param report - what the suite returned
 * @returns an object that validates against `reportSchema`
 */
export function jsonReport(report: SuiteReport, context: JsonReportContext = {}): JsonReport {
  const { name, version, url } = report.candidate;
  const out: JsonReport = {
    tool: tool(),
    schemaVersion: reportSchemaVersion,
    status: context.status ?? (report.properties.some((p) => p.status === 'fail') ? 'fail' : 'pass'),
    ...(context.ms !== undefined ? { ms: Math.round(context.ms) } : {}),
    candidate: version === undefined ? { name, url } : { name, version, url },
    properties: report.properties.map((p) => {
      const result: JsonPropertyResult = { id: p.id, status: p.status, level: p.level, basis: copyBasis(p.basis), runs: p.runs };
      if (p.reason !== undefined) result.reason = p.reason;
      if (p.counterexample) {
        const { steps, seed, path } = p.counterexample;
        result.counterexample = { steps: traceLines(steps), seed, path, trace: structuredClone(steps) };
        const oracle = oracleLines(p.counterexample);
        if (oracle.length > 0) result.counterexample.oracle = oracle;
      }
      if (p.causedBy) result.causedBy = { property: p.causedBy.property, step: p.causedBy.step };
      if (p.followsFrom) result.followsFrom = p.followsFrom;
      return result;
    }),
  };
  if (report.abilities) {
    const { transports, fixtures, notes, endpoints, resumption } = report.abilities;
    out.abilities = {
      transports: [...transports],
      fixtures: { emit: fixtures.emit, emitUnsolicited: fixtures.emitUnsolicited, sessionInfo: fixtures.sessionInfo },
      notes: [...notes],
      ...(endpoints ? { endpoints: { ...endpoints } } : {}),
    };
    if (resumption) {
      const { offered, postStreams, standaloneStream, evidence } = resumption;
      out.abilities.resumption = standaloneStream === undefined ? { offered, postStreams, evidence } : { offered, postStreams, standaloneStream, evidence };
    }
  }
  if (report.coverage) {
    const { states, reached, scenarios } = report.coverage;
    out.coverage = { states, reached, scenarios };
  }
  if (report.interleavings) {
    const { runs, seed, ms } = report.interleavings;
    out.interleavings = { runs, seed, ms };
  }
  if (report.divergences && report.divergences.length > 0) {
    out.divergences = report.divergences.map((d) => ({
      message: divergenceLine(d),
      step: structuredClone(d.step),
      seed: d.seed,
      path: d.path,
      runs: d.runs,
      steps: traceLines(d.steps),
      trace: structuredClone(d.steps),
    }));
  }
  if (context.baseline) out.baseline = baselineJson(context.baseline);
  return out;
}

/**
 * The JSON report of a check that could not be done (exit status 2): who was to be checked, and why not.
 *
 * @param candidate - the candidate as far as it is known (its URL, or the adapter's name)
 * @param error - the reason, one line
 * @param ms - wall time until the check gave up
 */
export function errorJsonReport(candidate: { name: string; url?: string }, error: string, ms?: number): JsonReport {
  return {
    tool: tool(),
    schemaVersion: reportSchemaVersion,
    status: 'error',
    error,
    ...(ms !== undefined ? { ms: Math.round(ms) } : {}),
    candidate: candidate.url === undefined ? { name: candidate.name } : { name: candidate.name, url: candidate.url },
    properties: [],
  };
}

/** A deep copy of a basis, fields picked one by one like the rest of the report. */
function copyBasis(basis: ResultBasis): ResultBasis {
  const copy: ResultBasis = {
    statement: basis.statement,
    quotes: basis.quotes.map(({ revision, url, section, text, level }) => ({
      revision,
      url,
      ...(section !== undefined ? { section } : {}),
      text,
      ...(level !== undefined ? { level } : {}),
    })),
    silences: basis.silences.map(({ revision, url, note }) => ({ revision, url, note })),
  };
  if (basis.derivation !== undefined) copy.derivation = basis.derivation;
  if (basis.rationale !== undefined) copy.rationale = basis.rationale;
  if (basis.claims !== undefined) copy.claims = [...basis.claims];
  if (basis.weaker !== undefined) copy.weaker = { ...basis.weaker };
  return copy;
}

export interface JsonRenderOptions {
  /** Spaces of indentation (default 2; 0 for one line). */
  indent?: number;
}

/**
 * The JSON report as text.
 *
 * @param report - what the suite returned
 * @param options - indentation
 * @returns JSON, ending with a newline
 */
export function renderJson(report: SuiteReport | JsonReport, options: JsonRenderOptions & JsonReportContext = {}): string {
  const indent = options.indent ?? 2;
  const json = 'schemaVersion' in report ? report : jsonReport(report, options);
  return `${JSON.stringify(json, null, indent > 0 ? indent : undefined)}\n`;
}
