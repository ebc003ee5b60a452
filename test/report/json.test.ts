import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { jsonReport, renderJson } from '../../src/report/json.js';
import { reportSchema } from '../../src/report/report-schema.js';
import type { SuiteReport } from '../../src/suite/types.js';
import { nastyReport, sampleReport } from './sample.js';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(reportSchema);

function errors(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('JSON report', () => {
  test("design.md's shape, with the extra keys under their own names", () => {
    const json = jsonReport(sampleReport());
    expect(Object.keys(json)).toEqual(['candidate', 'properties', 'abilities', 'coverage', 'interleavings']);
    expect(json.candidate).toEqual({ name: '@modelcontextprotocol/sdk', version: '1.32.2', url: 'http://127.0.0.1:41234' });
    expect(json.properties[0]).toEqual({ id: 'no-silent-loss', status: 'pass', runs: 200, reason: 'every promised event reached the application' });
    expect(json.properties[2]!.counterexample).toEqual({
      steps: sampleReport().properties[2]!.counterexample!.steps,
      seed: 1234567,
      path: '12:3:0:0',
    });
    expect(json.properties[1]!.counterexample!.oracle).toHaveLength(2);
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
    ['no candidate', (j: any) => delete j.candidate, /must have required property 'candidate'/],
    ['a url that is not http', (j: any) => (j.candidate.url = 'ftp://x'), /url must match pattern/],
  ])('a broken report does not validate: %s', (_name, breakIt, message) => {
    const json = JSON.parse(renderJson(sampleReport()));
    breakIt(json);
    const found = errors(json);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });

  test('indentation option, newline at the end', () => {
    expect(renderJson(sampleReport(), { indent: 0 }).split('\n')).toHaveLength(2);
    expect(renderJson(sampleReport())).toMatch(/^\{\n {2}"candidate"/);
  });
});
