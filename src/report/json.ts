/**
 * The JSON report of `mcp-resume-spec check --json`, in design.md's shape:
 * `{candidate, properties: [{id, status, runs, reason?, counterexample?: {steps, seed, path}}]}`,
 * plus the suite's extra findings under their own keys (`counterexample.oracle`, `abilities`,
 * `coverage`, `interleavings`). `report-schema.ts` describes exactly this. Pure: no I/O.
 */
import type { PropertyId } from '../../model/property-ids.js';
import type { Status } from '../../properties/judgement.js';
import type { CandidateAbilities, CoverageReport, SuiteReport } from '../suite/types.js';

/** One property in the JSON report. */
export interface JsonPropertyResult {
  id: PropertyId;
  status: Status;
  runs: number;
  reason?: string;
  counterexample?: {
    steps: string[];
    seed: number;
    path: string;
    /** The model's expectation beside the candidate's answers, when they differ. */
    oracle?: string[];
  };
}

/** The JSON report (design.md, "The contract for candidate servers"). */
export interface JsonReport {
  candidate: { name: string; version?: string; url: string };
  properties: JsonPropertyResult[];
  abilities?: CandidateAbilities;
  coverage?: CoverageReport;
  interleavings?: { runs: number; seed: number; ms: number };
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
      const result: JsonPropertyResult = { id: p.id, status: p.status, runs: p.runs };
      if (p.reason !== undefined) result.reason = p.reason;
      if (p.counterexample) {
        const { steps, seed, path, oracle } = p.counterexample;
        result.counterexample = { steps: [...steps], seed, path };
        if (oracle !== undefined) result.counterexample.oracle = [...oracle];
      }
      return result;
    }),
  };
  if (report.abilities) {
    const { transports, fixtures, notes } = report.abilities;
    out.abilities = {
      transports: [...transports],
      fixtures: { emit: fixtures.emit, emitUnsolicited: fixtures.emitUnsolicited, sessionInfo: fixtures.sessionInfo },
      notes: [...notes],
    };
  }
  if (report.coverage) {
    const { states, reached, scenarios } = report.coverage;
    out.coverage = { states, reached, scenarios };
  }
  if (report.interleavings) {
    const { runs, seed, ms } = report.interleavings;
    out.interleavings = { runs, seed, ms };
  }
  return out;
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
