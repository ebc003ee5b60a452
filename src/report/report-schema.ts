/**
 * JSON Schema (draft 2020-12) of the JSON report `json.ts` writes:
 * `{tool, schemaVersion, status, error?, ms?, candidate, properties: [{id, status, runs, reason?, counterexample?: {steps, seed, path}}]}`,
 * each property's `level` and `basis`, and the documented extra keys. Every object is closed (`additionalProperties: false`), so a
 * field that appears or changes name is caught. Validate with any 2020-12 validator, e.g.
 * `new Ajv2020({ strict: true }).compile(reportSchema)` from `ajv/dist/2020.js`.
 */
import { propertyIds } from '../../model/property-ids.js';
import { levels, revisions } from '../../properties/definition.js';
import { transports } from '../../model/transport.js';
import { reportSchemaVersion } from './json.js';

const nonNegativeInteger = { type: 'integer', minimum: 0 } as const;

/** The JSON report's schema, as a plain object (JSON-serialisable). */
export const reportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:mcp-resume-spec:check-report',
  title: 'mcp-resume-spec check report',
  description: 'Which resumption properties a candidate MCP server holds, breaks, or could not be judged on.',
  type: 'object',
  required: ['tool', 'schemaVersion', 'status', 'candidate', 'properties'],
  additionalProperties: false,
  // A check that could not be done says why, and may not know the candidate's URL (an adapter that did not start).
  if: { type: 'object', properties: { status: { const: 'error' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords; this object is data, never awaited
  then: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
  else: {
    type: 'object',
    not: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
    properties: { candidate: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
  },
  properties: {
    tool: {
      type: 'object',
      required: ['name', 'version'],
      additionalProperties: false,
      properties: { name: { const: 'mcp-resume-spec' }, version: { type: 'string', minLength: 1 } },
    },
    schemaVersion: { const: reportSchemaVersion, description: 'the version of this shape; it changes when a field changes meaning or goes away' },
    status: {
      enum: ['pass', 'fail', 'error'],
      description:
        "the check's outcome, as its exit status says: pass (0), fail (1: a property failed at or above --fail-on, not listed in the baseline), error (2: the check could not be done)",
    },
    error: { type: 'string', minLength: 1, description: 'why the check could not be done (status error only)' },
    ms: { type: 'integer', minimum: 0, description: 'wall time of the whole check, ms' },
    baseline: {
      type: 'object',
      description:
        'the baseline file given (--baseline): listed failures that failed again (known), that now pass (fixed), and that this run did not judge (unjudged)',
      required: ['file', 'known', 'fixed'],
      additionalProperties: false,
      properties: {
        file: { type: 'string', minLength: 1 },
        known: { type: 'array', items: { enum: [...propertyIds] }, uniqueItems: true },
        fixed: { type: 'array', items: { enum: [...propertyIds] }, uniqueItems: true },
        unjudged: {
          type: 'array',
          items: { enum: [...propertyIds] },
          uniqueItems: true,
          description: 'listed properties this run judged neither way (skipped, or not run): neither known nor fixed, and kept by --write-baseline',
        },
        narrowedBy: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description:
            'the flags that made this run judge less than a default check (--only, --runs N, --no-coverage, --path, or --max-seconds N when the time budget ran out): a fixed failure may still fail in a full check',
        },
      },
    },
    candidate: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        version: { type: 'string' },
        url: { type: 'string', pattern: '^https?://' },
      },
    },
    properties: {
      type: 'array',
      items: { $ref: '#/$defs/propertyResult' },
    },
    abilities: {
      type: 'object',
      required: ['transports', 'fixtures', 'notes'],
      additionalProperties: false,
      properties: {
        transports: { type: 'array', items: { enum: [...transports] }, uniqueItems: true },
        fixtures: {
          type: 'object',
          required: ['emit', 'emitUnsolicited', 'sessionInfo'],
          additionalProperties: false,
          properties: {
            emit: { type: 'boolean' },
            emitUnsolicited: { type: 'boolean' },
            sessionInfo: { type: 'boolean' },
          },
        },
        notes: { type: 'array', items: { type: 'string' } },
        endpoints: {
          type: 'object',
          description: "the URL of the endpoint each transport the candidate serves answered at (sse: the legacy stream's GET endpoint)",
          additionalProperties: false,
          properties: Object.fromEntries(transports.map((t) => [t, { type: 'string', minLength: 1 }])),
        },
        resumption: {
          type: 'object',
          required: ['offered', 'postStreams', 'evidence'],
          additionalProperties: false,
          properties: {
            offered: { type: 'boolean' },
            postStreams: { type: 'boolean' },
            standaloneStream: { type: 'boolean' },
            evidence: { type: 'string' },
          },
        },
      },
    },
    coverage: {
      type: 'object',
      required: ['states', 'reached', 'scenarios'],
      additionalProperties: false,
      properties: { states: nonNegativeInteger, reached: nonNegativeInteger, scenarios: nonNegativeInteger },
    },
    interleavings: {
      type: 'object',
      required: ['runs', 'seed', 'ms'],
      additionalProperties: false,
      properties: { runs: nonNegativeInteger, seed: { type: 'integer' }, ms: { type: 'number', minimum: 0 } },
    },
    divergences: {
      type: 'array',
      description: 'steps where the candidate answered what the model does not allow, one per distinct divergence',
      items: {
        type: 'object',
        required: ['message', 'step', 'seed', 'path', 'runs'],
        additionalProperties: false,
        properties: {
          message: { type: 'string', minLength: 1 },
          step: { $ref: '#/$defs/traceStep' },
          seed: { type: 'integer' },
          path: { type: 'string', minLength: 1 },
          runs: { type: 'integer', minimum: 1 },
          steps: { type: 'array', items: { type: 'string' }, minItems: 1, description: "the run's steps up to the divergence, which is the last" },
          trace: { type: 'array', items: { $ref: '#/$defs/traceStep' }, minItems: 1, description: 'the same steps as data' },
        },
      },
    },
  },
  $defs: {
    propertyResult: {
      type: 'object',
      required: ['id', 'status', 'level', 'basis', 'runs'],
      additionalProperties: false,
      properties: {
        id: { enum: [...propertyIds] },
        status: { enum: ['pass', 'fail', 'skip'] },
        level: {
          $ref: '#/$defs/level',
          description: "the level the result counts at (--fail-on): the property's, or for a failure graded below it (basis.weaker), that grade",
        },
        basis: { $ref: '#/$defs/basis' },
        runs: nonNegativeInteger,
        reason: { type: 'string' },
        counterexample: { $ref: '#/$defs/counterexample' },
        causedBy: {
          type: 'object',
          description: 'the failure of the same run and step that explains this one',
          required: ['property', 'step'],
          additionalProperties: false,
          properties: { property: { enum: [...propertyIds] }, step: { type: 'integer', minimum: 1 } },
        },
        followsFrom: {
          enum: [...propertyIds],
          description:
            'set when every run that broke this property broke one of higher precedence at the same step (it never failed on its own): that property, in the reported run',
        },
      },
    },
    level: {
      enum: [...levels],
      description:
        "must: a MUST of the spec; derived: follows from a MUST (counts as must); should: a SHOULD; policy: this project's rule where the spec is silent",
    },
    basis: {
      type: 'object',
      required: ['statement', 'quotes', 'silences'],
      additionalProperties: false,
      properties: {
        statement: { type: 'string', minLength: 1 },
        quotes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['revision', 'url', 'text'],
            additionalProperties: false,
            properties: {
              revision: { enum: [...revisions] },
              url: { type: 'string', pattern: '^https://modelcontextprotocol\\.io/specification/' },
              section: { type: 'string' },
              text: { type: 'string', minLength: 1, description: 'the spec sentence, verbatim' },
              level: { $ref: '#/$defs/level' },
            },
          },
        },
        silences: {
          type: 'array',
          description: 'revisions that say nothing this property could rest on',
          items: {
            type: 'object',
            required: ['revision', 'url', 'note'],
            additionalProperties: false,
            properties: { revision: { enum: [...revisions] }, url: { type: 'string' }, note: { type: 'string' } },
          },
        },
        derivation: { type: 'string' },
        rationale: { type: 'string' },
        claims: { type: 'array', items: { type: 'string' } },
        weaker: {
          type: 'object',
          description: "failures graded below the property's level; a result at that level is one of them",
          required: ['level', 'when', 'why'],
          additionalProperties: false,
          properties: { level: { $ref: '#/$defs/level' }, when: { type: 'string' }, why: { type: 'string' } },
        },
      },
    },
    counterexample: {
      type: 'object',
      required: ['steps', 'seed', 'path', 'trace'],
      additionalProperties: false,
      properties: {
        steps: { type: 'array', items: { type: 'string' }, minItems: 1 },
        seed: { type: 'integer', description: 'fast-check seed, or -1 for a deterministic scenario' },
        path: { type: 'string', minLength: 1, description: 'fast-check path, or coverage:N / probe:NAME' },
        oracle: { type: 'array', items: { type: 'string' } },
        trace: { type: 'array', items: { $ref: '#/$defs/traceStep' }, minItems: 1, description: 'the steps as data' },
      },
    },
    traceStep: {
      type: 'object',
      required: ['index', 'kind', 'actor', 'answer'],
      additionalProperties: false,
      properties: {
        index: { type: 'integer', minimum: 1 },
        kind: { enum: ['initialize', 'call', 'ping', 'send', 'receive', 'drain', 'drop', 'resume', 'timeout', 'delete'] },
        actor: { enum: ['client', 'server', 'connection', 'application'] },
        transport: { enum: [...transports] },
        stream: { type: 'string' },
        call: { type: 'string' },
        request: { type: 'string' },
        tool: { enum: ['emit', 'emit_unsolicited', 'session_info'] },
        notifications: nonNegativeInteger,
        reinitialize: { type: 'boolean' },
        migrate: { type: 'boolean' },
        session: { enum: ['own', 'other', 'deleted'] },
        cursor: {
          type: 'object',
          required: ['value', 'origin'],
          additionalProperties: false,
          properties: { value: { type: ['string', 'null'] }, origin: { enum: ['own', 'garbage', 'stale'] } },
        },
        lost: nonNegativeInteger,
        retries: { type: 'boolean' },
        detail: { type: 'string' },
        answer: { $ref: '#/$defs/stepAnswer' },
        expected: { $ref: '#/$defs/stepAnswer' },
      },
    },
    frame: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        opening: { enum: ['endpoint', 'priming'] },
        call: { type: 'string' },
        seq: nonNegativeInteger,
      },
    },
    stepAnswer: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { type: 'integer' },
        reason: { type: 'string' },
        sessionId: { type: 'string' },
        frames: { type: 'array', items: { $ref: '#/$defs/frame' } },
        stream: { enum: ['replay', 'quiet'] },
        logOnly: { type: 'boolean' },
        duplicate: { type: 'boolean' },
        nothing: { type: 'boolean' },
        lost: {
          type: 'object',
          required: ['undrained', 'inFlight'],
          additionalProperties: false,
          properties: { undrained: nonNegativeInteger, inFlight: nonNegativeInteger },
        },
        newSession: { type: 'boolean' },
        error: { type: 'string' },
        data: { type: 'string' },
        frame: { $ref: '#/$defs/frame' },
        missing: { enum: ['connection', 'frame', 'cursor'] },
        jsonBody: { type: 'boolean' },
        opens: { type: 'string' },
      },
    },
  },
} as const;
