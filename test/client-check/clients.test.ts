/**
 * The client checker end to end on real clients, one run each (the run docs/client-findings.md is
 * generated from): the checking client in its correct (on-drain) setting passes every client property, each client mutant
 * breaks exactly the properties its catalog entry lists, the official SDK client (both transports)
 * gets what the checker really finds, and the committed findings page matches this run.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientPropertyIds } from '../../properties/client/ids.js';
import { clientExitStatus, renderClientText, type ClientReport } from '../../src/check-client/report.js';
import { clientMutants } from '../../src/check-client/mutants/index.js';
import { modelPrediction } from '../../src/check-client/model-scenarios.js';
import { describeFault } from '../../src/check-client/faults.js';
import {
  clientFindingsTable,
  clientPredictionTable,
  clientSubjects,
  normalizeClientText,
  readClientFindings,
  runClientSubjects,
} from '../../scripts/docs/client-findings-doc.js';

let reports: Map<string, ClientReport>;
beforeAll(async () => {
  const list = await runClientSubjects();
  reports = new Map(list.map((r) => [r.client.name, r]));
}, 90_000);

const failed = (report: ClientReport) =>
  report.properties
    .filter((p) => p.status === 'fail')
    .map((p) => p.id)
    .sort();

describe('check-client on real clients', () => {
  it('runs every fixed and model scenario for every client', () => {
    expect(clientSubjects.length).toBe(2 + clientMutants.length);
    for (const report of reports.values()) {
      expect(report.scenarios.filter((s) => s.source === 'fixed').length).toBe(5);
      expect(report.scenarios.filter((s) => s.source === 'model').length).toBeGreaterThan(0);
    }
    for (const report of reports.values()) {
      expect({ client: report.client.name, errors: report.scenarios.filter((s) => s.error !== undefined) }).toEqual({ client: report.client.name, errors: [] });
      // The probe found both transports served, and nothing to note (no close() left hanging).
      expect({ client: report.client.name, abilities: report.abilities }).toEqual({
        client: report.client.name,
        abilities: { transports: ['streamable', 'sse'], notes: [] },
      });
    }
  });

  it('passes the checking client in its on-drain setting on every property, each judged', () => {
    const report = reports.get('checking-client')!;
    for (const id of clientPropertyIds) {
      const result = report.properties.find((p) => p.id === id)!;
      expect({ id, status: result.status }).toEqual({ id, status: 'pass' });
      expect(result.runs).toBeGreaterThan(0);
    }
    expect(clientExitStatus(report)).toBe(0);
  });

  it("catches the checking client's on-receive setting on exactly what the model predicts for cursor-on-receive, in the model's scenario", () => {
    const onReceive = clientMutants.find((m) => m.name === 'cursor-on-receive')!;
    expect(onReceive.knobs).toEqual({ cursorAdvance: 'onReceive' });
    const report = reports.get(onReceive.name)!;
    const prediction = modelPrediction(onReceive.knobs);
    expect(failed(report)).toEqual(prediction.predicted);
    // Only one scenario of the run broke it, and it stages the very fault the model derives for the knob.
    const broke = report.scenarios.filter((s) => s.broke.length > 0);
    expect(broke.map((s) => s.name)).toEqual(['model:cut-undrained']);
    expect(prediction.scenarios.map((s) => s.faults.map(describeFault))).toContainEqual(broke[0]!.faults);
  });

  for (const mutant of clientMutants) {
    it(`catches the ${mutant.name} mutant on exactly ${mutant.breaks.join(', ')}`, () => {
      const report = reports.get(mutant.name)!;
      expect(failed(report)).toEqual([...mutant.breaks].sort());
      expect(clientExitStatus(report)).toBe(1);
      // Each failure points at an entry of its scenario's recorded history.
      for (const p of report.properties.filter((r) => r.status === 'fail')) {
        const c = p.counterexample!;
        expect([...c.history.wire, ...c.history.app].some((e) => e.at === c.at)).toBe(true);
      }
    });
  }

  it('names what the application lost or where the session went: the made-up result, the header at the legacy endpoint', () => {
    const emptyResult = reports.get('empty-result-on-cut')!.properties.find((p) => p.id === 'client-delivers-exactly-once')!;
    expect(emptyResult.reason).toMatch(/^call 1 \(emit "[^"]+"\) resolved with \{"content":\[\]\}, which is no result the server sent/);
    const atLegacy = reports.get('streamable-session-at-legacy')!.properties.find((p) => p.id === 'client-no-cross-transport-session')!;
    expect(atLegacy.reason).toMatch(/^presented streamable session [0-9a-f]+ at \/sse in the Mcp-Session-Id header \(GET with Last-Event-ID /);
  });

  it('finds what the official SDK client 1.32.2 does', () => {
    const report = reports.get('sdk')!;
    const text = renderClientText(report);
    // It resumes from the last event it handed on: no loss on a cut, undrained or not; every wait bounded.
    for (const name of ['model:cut-in-flight', 'model:cut-undrained', 'legacy-cut', 'delayed-result', 'no-priming-cut']) {
      expect({ name, broke: report.scenarios.find((s) => s.name === name)!.broke }, text).toEqual({ name, broke: [] });
    }
    // It keeps no record of delivered event IDs: a server's inclusive replay reaches the application twice.
    expect(report.scenarios.find((s) => s.name === 'model:delivers-exactly-once@dedup=false+inclusive')!.broke).toEqual(['client-delivers-exactly-once']);
    // On a 404 it surfaces the error but keeps the dead session: the next request presents it again.
    expect(report.scenarios.find((s) => s.name === 'session-expired')!.broke).toEqual(['client-reinitializes-on-404']);
    expect(failed(report)).toEqual(['client-delivers-exactly-once', 'client-reinitializes-on-404']);
    expect(report.properties.find((p) => p.id === 'client-reinitializes-on-404')!.reason).toMatch(
      /after a 404 for session [0-9a-f]+, the client presented it again/,
    );
  });

  it('docs/client-findings.md matches this run (run npm run docs if not)', () => {
    const committed = readClientFindings(readFileSync(fileURLToPath(new URL('../../docs/client-findings.md', import.meta.url)), 'utf8'));
    const fresh = clientFindingsTable([...reports.values()]);
    expect(committed.header).toEqual(fresh.header);
    expect(committed.rows, 'a finding changed').toEqual(fresh.rows);
    const committedPrediction = readClientFindings(readFileSync(fileURLToPath(new URL('../../docs/client-findings.md', import.meta.url)), 'utf8'), 'mutant');
    expect(committedPrediction, "the model's prediction changed").toEqual(clientPredictionTable());
  });

  it('placeholders hide session IDs and event-ID tags, and nothing else', () => {
    expect(normalizeClientText('session 0123456789abcdef0123456789abcdef at http:cb062b0b-e12, session ea19da43')).toBe(
      'session <session> at http:<tag>-e12, session <session>',
    );
    expect(normalizeClientText('seq 1 of label undrained')).toBe('seq 1 of label undrained');
  });
});
