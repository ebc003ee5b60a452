/**
 * No false positives, beyond the SDK: a plain `node:http` server without any SDK
 * (`test/candidates/plain-server.ts`), in several correct designs (event-ID and session-ID
 * formats, the polling design, no resumption), checked with `runSuite`. Each gets exactly the
 * statuses its design earns: `pass` where the property was judged and held, `skip` where its
 * design gives nothing to judge (one transport; no resumption). A deliberately broken design shows
 * that the same check does fail.
 */
import { describe, expect, test } from 'vitest';
import type { PropertyId } from '../../model/property-ids.js';
import { countsAt } from '../../properties/definition.js';
import type { Status } from '../../properties/judgement.js';
import { parseTargetUrl } from '../../src/cli/target-url.js';
import { runSuite } from '../../src/check-server/run-suite.js';
import { expected, noResumption, oneTransport, statusesOf } from './statuses.js';
import type { CandidateTarget, SuiteReport } from '../../src/check-server/types.js';
import { startPlainServer, type PlainServerOptions } from './plain-server.js';

const suiteOptions = { runs: 30, seed: 20261202, timeoutMs: 3000 };

/** Every property's status, reason and counterexample path, one a line: the message of a failed expectation. */
function why(report: SuiteReport): string {
  return report.properties.map((p) => `${p.id}: ${p.status} (${p.reason}) path=${p.counterexample?.path ?? '-'}`).join('\n');
}

/**
 * The suite's target for a running server: its `url` is the streamable endpoint (`.../mcp`), which
 * the suite takes as a base URL plus endpoint paths, read as `check --url` reads it.
 */
function targetOf(name: string, url: string): CandidateTarget {
  const at = parseTargetUrl(url);
  return { name, url: at.base, paths: at.paths };
}

/** Starts the server of `options`, checks it with `check`, and stops it whatever happens. */
async function checking<T>(name: string, options: PlainServerOptions, check: (target: CandidateTarget) => Promise<T>): Promise<T> {
  const running = await startPlainServer(options);
  try {
    return await check(targetOf(name, running.url));
  } finally {
    await running.stop();
  }
}

interface Design {
  name: string;
  options: PlainServerOptions;
  statuses: Record<PropertyId, Status>;
}

const designs: Design[] = [
  { name: 'ids=stream', options: { ids: 'stream' }, statuses: expected(oneTransport) },
  { name: 'ids=global', options: { ids: 'global' }, statuses: expected(oneTransport) },
  // "1", "2", ... per session: they repeat across sessions, which the spec allows.
  { name: 'ids=session', options: { ids: 'session' }, statuses: expected(oneTransport) },
  { name: 'poll', options: { poll: true }, statuses: expected(oneTransport) },
  { name: 'sessionIds=decimal', options: { sessionIds: 'decimal' }, statuses: expected(oneTransport) },
  { name: 'sessionIds=b64-96', options: { sessionIds: 'b64-96' }, statuses: expected(oneTransport) },
  { name: 'sessionIds=ulid', options: { sessionIds: 'ulid' }, statuses: expected(oneTransport) },
  { name: 'sessionIds=uuidv7', options: { sessionIds: 'uuidv7' }, statuses: expected(oneTransport) },
  {
    name: 'ids=none',
    options: { ids: 'none' },
    // No event IDs at all: the replay properties have nothing to judge; the rest still holds.
    statuses: expected({ ...oneTransport, ...noResumption }),
  },
];

// Designs run side by side: most of a check's time is spent waiting on streams.
describe.concurrent('correct designs of a plain node:http server', () => {
  test.each(designs.map((d) => [d.name, d] as const))(
    '%s: exactly the statuses its design earns',
    async (name, design) => {
      await checking(name, design.options, async (target) => {
        const report = await runSuite(target, suiteOptions);
        expect(statusesOf(report), why(report)).toEqual(design.statuses);
        for (const p of report.properties) if (p.status === 'pass') expect(p.runs, p.id).toBeGreaterThan(0);
        // emit_unsolicited answers with a JSON body (the contract allows it), where the model opens a
        // stream: one divergence at the call, none for each later step on the stream it does not have.
        const divergences = (report.divergences ?? []).map((d) => d.step);
        expect(divergences.filter((step) => step.kind === 'call' && step.answer.jsonBody).length, name).toBeGreaterThan(0);
        expect(
          divergences.filter((step) => step.answer.missing === 'connection'),
          name,
        ).toEqual([]);
      });
    },
    120_000,
  );

  test("bug=inclusive (the cursor's own event replayed again): no failure while the checking client drops the copy by its ID, order-preserved fails with --client-dedup off", async () => {
    await checking('bug=inclusive', { bug: 'inclusive' }, async (target) => {
      const deduped = await runSuite(target, suiteOptions);
      expect(statusesOf(deduped), why(deduped)).toEqual(expected(oneTransport));
      const undeduped = await runSuite(target, { ...suiteOptions, client: { dedup: false } });
      // Only order-preserved: the copy is no loss, and what follows it still arrives.
      expect(statusesOf(undeduped), why(undeduped)).toEqual(expected({ ...oneTransport, 'order-preserved': 'fail' }));
      const order = undeduped.properties.find((p) => p.id === 'order-preserved')!;
      expect(order.reason).toMatch(/^notification \d+ of \S+ reached the application twice on stream [rs]\d+/);
    });
  }, 120_000);

  test('bug=lose-standalone (notifications lost, never a response): no-silent-loss fails graded POLICY, so --fail-on should passes', async () => {
    await checking('bug=lose-standalone', { bug: 'lose-standalone' }, async (target) => {
      const report = await runSuite(target, suiteOptions);
      const loss = report.properties.find((p) => p.id === 'no-silent-loss')!;
      expect([loss.status, loss.level], why(report)).toEqual(['fail', 'policy']);
      expect(loss.reason).toMatch(/never got unsolicited notification/);
      expect(
        report.properties.filter((p) => p.status === 'fail' && countsAt(p.level, 'should')),
        why(report),
      ).toEqual([]);
    });
  }, 120_000);

  test('bug=lose: the check fails no-silent-loss', async () => {
    await checking('bug=lose', { bug: 'lose' }, async (target) => {
      const report = await runSuite(target, suiteOptions);
      expect(statusesOf(report)['no-silent-loss'], why(report)).toBe('fail');
    });
  }, 120_000);

  // Leaving out a stale cursor that names an event of the current session (per-session IDs) hides no replay bug.
  test('bug=cross-stream with per-session event IDs: the check fails no-cross-stream-replay', async () => {
    await checking('bug=cross-stream', { ids: 'session', bug: 'cross-stream' }, async (target) => {
      const report = await runSuite(target, suiteOptions);
      expect(statusesOf(report)['no-cross-stream-replay'], why(report)).toBe('fail');
    });
  }, 120_000);
});
