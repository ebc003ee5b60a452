/**
 * The suite's public shapes: a candidate to check, options, and the report (the JSON report's shape).
 */
import type { Endpoint } from '../../properties/history.js';
import type { Status } from '../../properties/judgement.js';
import type { CursorAdvance } from '../../model/policy.js';
import type { PropertyId } from '../../model/property-ids.js';
import type { Level } from '../../properties/definition.js';
import type { ResultBasis } from '../../properties/definitions.js';
import type { StepAnswer, TraceStepData } from '../../model/trace-step.js';
import type { Transport } from '../../model/transport.js';

/** A candidate server reachable on loopback. */
export interface CandidateTarget {
  name: string;
  version?: string;
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Endpoint paths (defaults `/mcp`, `/sse`, `/messages`). */
  paths?: Partial<Record<Endpoint, string>>;
  /** Headers sent with every request (e.g. `authorization`), as `CheckClientOptions.headers`; never written to a report. */
  headers?: Readonly<Record<string, string>>;
  /**
   * Transports whose endpoint the user named (`check --url` with a path, `--mcp`, `--sse`): each must
   * answer `initialize`, or the candidate cannot be checked. Absent: either may be missing (a base URL).
   */
  required?: readonly Transport[];
}

/** What the probe found the candidate can do. */
export interface CandidateAbilities {
  transports: Transport[];
  /** Which fixture tools `tools/list` shows. */
  fixtures: { emit: boolean; emitUnsolicited: boolean; sessionInfo: boolean };
  /** Why a transport is missing, for skip reasons. */
  notes: string[];
  /** The URL of the endpoint each transport it serves answered at (`sse`: the legacy stream's GET endpoint). */
  endpoints?: Partial<Record<Transport, string>>;
  /** Whether streamable HTTP offers resumption (absent when the candidate does not serve it). */
  resumption?: ResumptionOffer;
}

/** Whether a candidate sends SSE event IDs on the streams a client would resume (`src/check-server/abilities.ts`). */
export interface ResumptionOffer {
  /** Some stream carries event IDs: a client has cursors to resume from. */
  offered: boolean;
  /** POST response streams carry event IDs. */
  postStreams: boolean;
  /** The standalone GET stream carries event IDs (absent: not probed, for want of `emit_unsolicited`). */
  standaloneStream?: boolean;
  /** What was seen, in one sentence. */
  evidence: string;
}

/** How the checking client behaves (the reference client by default). */
export interface ClientSettings {
  cursorAdvance: CursorAdvance;
  dedup: boolean;
  retryOnTimeout: boolean;
}

export interface SuiteOptions {
  /** fast-check interleavings (default 200). */
  runs?: number;
  /** fast-check seed (default random; fixed in CI). */
  seed?: number;
  /** Replays one counterexample: fast-check's path, with `seed`. */
  path?: string;
  /** Judge only these properties. */
  only?: PropertyId[];
  /** Bound of each wait for the candidate, ms (default 2000). */
  timeoutMs?: number;
  /** Bound of the whole suite, ms (default 120000): past it, what is left is skipped with that reason. */
  maxMs?: number;
  /** Time each failing property's shrinking may take, ms (default 5000). */
  shrinkMs?: number;
  /** Run the model-coverage scenarios (default true). */
  coverage?: boolean;
  client?: Partial<ClientSettings>;
  /** Called after each scenario, with the properties that scenario broke (the CLI renders it on stderr). */
  onProgress?: (progress: SuiteProgress) => void;
}

/** One scenario done: where the suite is, as data (rendered only at the edge, e.g. `src/cli/progress.ts`). */
export interface SuiteProgress {
  /** Scenarios run so far, all phases together (shrinking's runs not counted). */
  scenarios: number;
  /** The phase this scenario belongs to; `shrinking` counts the failing properties whose counterexample was shrunk (or needed none). */
  phase: 'probes' | 'coverage' | 'interleavings' | 'shrinking';
  /** Scenarios (properties, when shrinking) of this phase done so far, of `total` planned (a phase cut short by the time budget ends below it). */
  done: number;
  total: number;
  elapsedMs: number;
  broke: PropertyId[];
  /**
   * Bounded waits of this scenario that ran their full length (`timeoutMs`): a stream the candidate
   * keeps open with nothing more to send (a replay it does not end, say) is read until then, so a
   * scenario costs that much more on such a candidate, correct or not.
   */
  waitsRanOut?: number;
}

/** A shrunk, replayable failing scenario. */
export interface Counterexample {
  /**
   * The steps as data (reports render them into sentences); a step whose `expected` is set is
   * where the candidate's answer differs from what the model allows.
   */
  steps: TraceStepData[];
  /** fast-check seed, or -1 for a deterministic scenario. */
  seed: number;
  /** fast-check path, or `coverage:N` / `coverage:N:K` (its first K steps) / `witness:N` / `probe:NAME` for deterministic scenarios. */
  path: string;
}

/** The failure that explains this one: same run, same evidence step. */
export interface RootCause {
  /** The property whose failure is the cause. */
  property: PropertyId;
  /** The step (1-based index into the shared counterexample) both failures rest on. */
  step: number;
}

/** A step where the candidate answered what the model does not allow: a finding of its own. */
export interface Divergence {
  /** The step, with the model's expectation (`expected`) and the candidate's answer. */
  step: TraceStepData & { expected: StepAnswer };
  /** The run it happened in (replay with `seed` and `path`), its steps up to the divergence. */
  seed: number;
  path: string;
  steps: TraceStepData[];
  /** Runs that showed the same divergence. */
  runs: number;
}

export interface PropertyResult {
  id: PropertyId;
  status: Status;
  /** Scenarios in which the property was judged (passed or failed). */
  runs: number;
  reason?: string;
  counterexample?: Counterexample;
  /** Set when another failure of the same run and step explains this one (a consequence). */
  causedBy?: RootCause;
  /**
   * Set when every run in which this property failed also broke a property of higher precedence
   * on the same step: it never failed on its own. Names the cause in the reported counterexample's
   * run. Such a failure comes and goes with its cause's manifestations (which message a race drops).
   */
  followsFrom?: PropertyId;
  /** How strongly the spec requires the property (`properties/definition.ts`). */
  level: Level;
  /** The property's statement and the spec's sentences it rests on, per revision. */
  basis: ResultBasis;
}

export interface CoverageReport {
  /** Model states (reference policy, coverage bounds) the scenarios were built to reach. */
  states: number;
  /** Of those, states whose scenario ran against the candidate up to that state without diverging. */
  reached: number;
  scenarios: number;
}

/** The report: one result per property, plus what the probe and coverage found. */
export interface SuiteReport {
  candidate: { name: string; url: string; version?: string };
  properties: PropertyResult[];
  abilities?: CandidateAbilities;
  coverage?: CoverageReport;
  /** Interleavings run, and wall time. */
  interleavings?: { runs: number; seed: number; ms: number };
  /** Where the candidate left the model, one per distinct divergence. */
  divergences?: Divergence[];
  /** Set when the time budget ran out before the suite was done: a property that passed was judged on fewer scenarios than planned. */
  cutShort?: true;
}
