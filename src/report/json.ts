/**
 * The JSON report of `mcp-resume-spec check --json`, in this shape:
 * `{candidate, properties: [{id, status, runs, reason?, counterexample?: {steps, seed, path}}]}`,
 * plus each property's `level` and `basis` (statement and quoted spec text, `properties/definition.ts`)
 * and the suite's extra findings under their own keys (`counterexample.oracle` and `counterexample.trace`,
 * the steps as data; `causedBy` on a failure another one explains; `divergences`; `abilities`,
 * `coverage`, `interleavings`). `report-schema.ts` describes exactly this. Pure: no I/O.
 */
import type { PropertyId } from '../../model/property-ids.js';
import type { Level } from '../../properties/definition.js';
import type { ResultBasis } from '../../properties/definitions.js';
import type { Status } from '../../properties/judgement.js';
import type { TraceStepData } from '../../model/trace-step.js';
import type { CandidateAbilities, CoverageReport, RootCause, SuiteReport } from '../suite/types.js';
import { divergenceLine, oracleLines, traceLines } from './findings.js';

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
}

/** The JSON report (its schema: `report-schema.ts`). */
export interface JsonReport {
  candidate: { name: string; version?: string; url: string };
  properties: JsonPropertyResult[];
  abilities?: CandidateAbilities;
  coverage?: CoverageReport;
  interleavings?: { runs: number; seed: number; ms: number };
  divergences?: JsonDivergence[];
}

/**
 * The JSON report as a plain object. Fields are picked one by one (not spread), so the output
 * stays exactly the documented shape even if the suite's types grow.
 *
 * @param report - what the suite returned
 * @returns an object that validates against `reportSchema`
 */
export function jsonReport(report: SuiteReport): JsonReport {
  const { name, version, url } = report.candidate;
  const out: JsonReport = {
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
      return result;
    }),
  };
  if (report.abilities) {
    const { transports, fixtures, notes, resumption } = report.abilities;
    out.abilities = {
      transports: [...transports],
      fixtures: { emit: fixtures.emit, emitUnsolicited: fixtures.emitUnsolicited, sessionInfo: fixtures.sessionInfo },
      notes: [...notes],
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
    out.divergences = report.divergences.map((d) => ({ message: divergenceLine(d), step: structuredClone(d.step), seed: d.seed, path: d.path, runs: d.runs }));
  }
  return out;
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
export function renderJson(report: SuiteReport, options: JsonRenderOptions = {}): string {
  const indent = options.indent ?? 2;
  return `${JSON.stringify(jsonReport(report), null, indent > 0 ? indent : undefined)}\n`;
}
