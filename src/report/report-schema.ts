/**
 * JSON Schema (draft 2020-12) of the JSON report `json.ts` writes: design.md's
 * `{candidate, properties: [{id, status, runs, reason?, counterexample?: {steps, seed, path}}]}`
 * and the documented extra keys. Every object is closed (`additionalProperties: false`), so a
 * field that appears or changes name is caught. Validate with any 2020-12 validator, e.g.
 * `new Ajv2020({ strict: true }).compile(reportSchema)` from `ajv/dist/2020.js`.
 */
import { propertyIds } from '../../model/property-ids.js';
import { transports } from '../../model/transport.js';

const nonNegativeInteger = { type: 'integer', minimum: 0 } as const;

/** The JSON report's schema, as a plain object (JSON-serialisable). */
export const reportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:mcp-resume-spec:check-report',
  title: 'mcp-resume-spec check report',
  description: 'Which resumption properties a candidate MCP server holds, breaks, or could not be judged on.',
  type: 'object',
  required: ['candidate', 'properties'],
  additionalProperties: false,
  properties: {
    candidate: {
      type: 'object',
      required: ['name', 'url'],
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
  },
  $defs: {
    propertyResult: {
      type: 'object',
      required: ['id', 'status', 'runs'],
      additionalProperties: false,
      properties: {
        id: { enum: [...propertyIds] },
        status: { enum: ['pass', 'fail', 'skip'] },
        runs: nonNegativeInteger,
        reason: { type: 'string' },
        counterexample: { $ref: '#/$defs/counterexample' },
      },
    },
    counterexample: {
      type: 'object',
      required: ['steps', 'seed', 'path'],
      additionalProperties: false,
      properties: {
        steps: { type: 'array', items: { type: 'string' }, minItems: 1 },
        seed: { type: 'integer', description: 'fast-check seed, or -1 for a deterministic scenario' },
        path: { type: 'string', minLength: 1, description: 'fast-check path, or coverage:N / probe:NAME' },
        oracle: { type: 'array', items: { type: 'string' } },
      },
    },
  },
} as const;
