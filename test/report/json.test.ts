import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { definitions } from '../../properties/definitions.js';
import { errorJsonReport, jsonReport, renderJson, reportSchemaVersion } from '../../src/report/json.js';
import { toolVersion } from '../../src/version.js';
import { reportSchema } from '../../src/report/report-schema.js';
import type { SuiteReport } from '../../src/check-server/types.js';
import { causedReport, followingReport, nastyReport, sampleReport } from './sample.js';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(reportSchema);

function errors(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('JSON report', () => {
  test('the report shape, with the extra keys under their own names', () => {
    const json = jsonReport(sampleReport());
    expect(Object.keys(json)).toEqual(['tool', 'schemaVersion', 'status', 'candidate', 'properties', 'abilities', 'coverage', 'interleavings']);
    expect(json.tool).toEqual({ name: 'mcp-resume-spec', version: toolVersion() });
    expect(json.schemaVersion).toBe(reportSchemaVersion);
    expect(json.status).toBe('fail');
    expect(json.candidate).toEqual({ name: '@modelcontextprotocol/sdk', version: '1.32.2', url: 'http://127.0.0.1:41234' });
    expect(json.abilities!.endpoints).toEqual({ streamable: 'http://127.0.0.1:41234/mcp', sse: 'http://127.0.0.1:41234/sse' });
    const { id: _id, level: _level, ...basis } = definitions['no-silent-loss'];
    expect(json.properties[0]).toEqual({
      id: 'no-silent-loss',
      status: 'pass',
      level: 'should',
      basis,
      runs: 200,
      reason: 'every promised event reached the application',
    });
    expect(json.properties.map((p) => p.level)).toEqual(['should', 'policy', 'policy', 'must']);
    expect(json.properties[0]!.basis.quotes).not.toBe(definitions['no-silent-loss'].quotes);
    // steps in words (rendered from the data), and the data itself under `trace`
    expect(json.properties[2]!.counterexample).toEqual({
      steps: [
        '1. client initializes over streamable -> 200',
        '2. client calls emit c1 over streamable -> 200',
        '3. client receives a frame on r1 -> r1-1(c1#1)',
        '4. connection of r1 drops (unclean: 1 frame(s) in flight or undrained lost)',
        '5. client resumes r1 over streamable with Last-Event-ID r1-1 -> 200, replays [r1-3(c1#3) r1-2(c1#2)]',
      ],
      seed: 1234567,
      path: '12:3:0:0',
      trace: sampleReport().properties[2]!.counterexample!.steps,
    });
    expect(json.properties[1]!.counterexample!.oracle).toEqual(['step 3: model expects 404 unknown cursor; candidate answered 200, a quiet stream']);
    expect(json.properties[1]!.counterexample!.trace[2]!.expected).toEqual({ status: 404, reason: 'unknown cursor' });
    expect(json).not.toHaveProperty('divergences');
    expect(json.properties.some((p) => 'causedBy' in p)).toBe(false);
  });

  test('root causes and divergences: `causedBy` on the consequence, `divergences` with the step as data; both validate', () => {
    const json = jsonReport(causedReport());
    expect(json.properties.find((p) => p.id === 'no-silent-stall')!.causedBy).toEqual({ property: 'unknown-cursor-rejected', step: 3 });
    expect(json.properties.find((p) => p.id === 'no-silent-stall')!.status).toBe('fail');
    expect(json.properties.find((p) => p.id === 'unknown-cursor-rejected')).not.toHaveProperty('causedBy');
    expect(json.divergences).toEqual([
      {
        message:
          'deviates from the model at step 3 (client resumes r1 over streamable with Last-Event-ID garbage (garbage)): model expects 404 unknown cursor, candidate answered 200, a quiet stream (2 runs)',
        step: causedReport().divergences![0]!.step,
        seed: -1,
        path: 'coverage:4',
        runs: 2,
        steps: [
          '1. client initializes over streamable -> 200',
          '2. client calls emit c1 over streamable -> 200',
          '3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor',
        ],
        trace: causedReport().divergences![0]!.steps,
      },
    ]);
    expect(errors(JSON.parse(renderJson(causedReport())))).toEqual([]);
    const broken = JSON.parse(renderJson(causedReport()));
    broken.properties[4].causedBy.property = 'not-a-property';
    expect(errors(broken).join('\n')).toMatch(/causedBy\/property must be equal to one of the allowed values/);
    const following = jsonReport(followingReport());
    expect(following.properties.find((p) => p.id === 'at-most-once-effect')!.followsFrom).toBe('unknown-cursor-rejected');
    expect(errors(JSON.parse(renderJson(followingReport())))).toEqual([]);
    const badFollows = JSON.parse(renderJson(followingReport()));
    badFollows.properties.find((p: { id: string }) => p.id === 'at-most-once-effect').followsFrom = 'not-a-property';
    expect(errors(badFollows).join('\n')).toMatch(/followsFrom must be equal to one of the allowed values/);
    const noExpectation = JSON.parse(renderJson(causedReport()));
    noExpectation.divergences[0].step.kind = 'teleport';
    expect(errors(noExpectation).join('\n')).toMatch(/step\/kind must be equal to one of the allowed values/);
  });

  test('the sample, a minimal report and a hostile one validate against the schema (ajv, draft 2020-12, strict)', () => {
    expect(ajv.getSchema('urn:mcp-resume-spec:check-report')).toBeDefined();
    expect(errors(JSON.parse(renderJson(sampleReport())))).toEqual([]);
    expect(errors(JSON.parse(renderJson(nastyReport())))).toEqual([]);
    const minimal: SuiteReport = { candidate: { name: 'x', url: 'http://127.0.0.1:1' }, properties: [] };
    expect(errors(JSON.parse(renderJson(minimal)))).toEqual([]);
  });

  test('fields the suite may grow are not passed through', () => {
    const report = sampleReport() as SuiteReport & { internal?: unknown };
    report.internal = { secret: 1 };
    (report.properties[0] as unknown as Record<string, unknown>).evidence = [1, 2];
    const json = JSON.parse(renderJson(report)) as Record<string, unknown>;
    expect(json).not.toHaveProperty('internal');
    expect(errors(json)).toEqual([]);
  });

  test.each([
    ['an unknown status', (j: any) => (j.properties[0].status = 'flaky'), /status must be equal to one of the allowed values/],
    ['an unknown property id', (j: any) => (j.properties[0].id = 'no-lost-events'), /id must be equal to one of the allowed values/],
    ['runs missing', (j: any) => delete j.properties[0].runs, /must have required property 'runs'/],
    ['negative runs', (j: any) => (j.properties[0].runs = -1), /runs must be >= 0/],
    ['a counterexample without seed', (j: any) => delete j.properties[2].counterexample.seed, /must have required property 'seed'/],
    ['a fractional seed', (j: any) => (j.properties[2].counterexample.seed = 1.5), /seed must be integer/],
    ['steps not strings', (j: any) => (j.properties[2].counterexample.steps = [1]), /steps\/0 must be string/],
    ['an extra field', (j: any) => (j.properties[0].extra = true), /must NOT have additional properties/],
    ['an unknown level', (j: any) => (j.properties[0].level = 'may'), /level must be equal to one of the allowed values/],
    ['no basis', (j: any) => delete j.properties[0].basis, /must have required property 'basis'/],
    ['a quote without its text', (j: any) => delete j.properties[0].basis.quotes[0].text, /must have required property 'text'/],
    ['a quote from elsewhere than the spec', (j: any) => (j.properties[0].basis.quotes[0].url = 'https://example.com/'), /url must match pattern/],
    ['an unknown revision', (j: any) => (j.properties[0].basis.quotes[0].revision = '2026-01-01'), /revision must be equal to one of the allowed values/],
    ['no candidate', (j: any) => delete j.candidate, /must have required property 'candidate'/],
    ['a url that is not http', (j: any) => (j.candidate.url = 'ftp://x'), /url must match pattern/],
    ['no tool version', (j: any) => delete j.tool.version, /must have required property 'version'/],
    ['another schema version', (j: any) => (j.schemaVersion = 1), /schemaVersion must be equal to constant/],
    ['an error without its reason', (j: any) => (j.status = 'error'), /must have required property 'error'/],
    ['a reason without an error', (j: any) => (j.error = 'x'), /must NOT be valid/],
  ])('a broken report does not validate: %s', (_name, breakIt, message) => {
    const json = JSON.parse(renderJson(sampleReport()));
    breakIt(json);
    const found = errors(json);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });

  test('indentation option, newline at the end', () => {
    expect(renderJson(sampleReport(), { indent: 0 }).split('\n')).toHaveLength(2);
    expect(renderJson(sampleReport())).toMatch(/^\{\n {2}"tool"/);
  });

  test("a check that could not be done: status error with the reason, no properties; the CLI's status, time and baseline pass through", () => {
    const error = errorJsonReport({ name: 'adapter' }, 'adapter adapter.ts: failed to load', 12.6);
    expect(error).toMatchObject({ status: 'error', error: 'adapter adapter.ts: failed to load', ms: 13, candidate: { name: 'adapter' }, properties: [] });
    expect(errors(JSON.parse(renderJson(error)))).toEqual([]);
    const baseline = {
      file: 'b.json',
      known: ['unknown-cursor-rejected' as const],
      fixed: ['no-silent-loss' as const],
      unjudged: ['session-ids-visible-ascii' as const],
      narrowedBy: ['--only'],
    };
    const json = jsonReport(sampleReport(), { status: 'pass', ms: 1234.4, baseline });
    expect(json).toMatchObject({ status: 'pass', ms: 1234, baseline });
    expect(errors(json)).toEqual([]);
  });
});
