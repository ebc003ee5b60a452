/**
 * Root causes and divergences, on hand-built scenarios: which failure explains which is decided
 * from the data (same run, same evidence step, a fixed precedence), never from the words.
 */
import { describe, expect, test } from 'vitest';
import type { PropertyId } from '../../model/property-ids.js';
import type { TraceStepData } from '../../model/trace-step.js';
import { fail, failAt, pass, skip, type Judgement } from '../../properties/judgement.js';
import { HistoryRecorder } from '../../src/wire/history-recorder.js';
import { anchorStep, causePrecedence, Verdicts, type ScenarioRecord } from '../../src/check-server/verdicts.js';

const ids: PropertyId[] = ['no-silent-loss', 'unknown-cursor-rejected', 'at-most-once-effect', 'no-silent-stall', 'order-preserved'];

/**
 * A scenario of three steps, each recorded as a step entry followed by one failure entry (the
 * evidence a judge would point at); step 3 diverges when `divergeAt3`.
 */
function scenario(path: string, divergeAt3 = true): { record: ScenarioRecord; evidence: number[] } {
  const recorder = new HistoryRecorder();
  const evidence: number[] = [];
  const steps: TraceStepData[] = [];
  for (let i = 1; i <= 3; i++) {
    recorder.step(`step ${i}`);
    evidence.push(recorder.record({ type: 'failure', reason: 'protocol', detail: `at ${i}` }).seq);
    steps.push({ index: i, kind: 'receive', actor: 'client', stream: 'r1', answer: { status: 200 } });
  }
  if (divergeAt3) steps[2]!.expected = { status: 404, reason: 'unknown cursor' };
  return { record: { history: recorder.history, steps, seed: -1, path }, evidence };
}

function judged(entries: Array<[PropertyId, Judgement]>): Map<PropertyId, Judgement> {
  const all = new Map<PropertyId, Judgement>(ids.map((id) => [id, pass('held')]));
  for (const [id, j] of entries) all.set(id, j);
  return all;
}

/** Adds a run (of `scenario(path)`) where no-silent-loss and no-silent-stall fail, resting on the given steps (0-based). */
function addLossAndStall(verdicts: Verdicts, path: string, lossAt: number, stallAt: number): void {
  const { record, evidence } = scenario(path, false);
  verdicts.add(
    record,
    judged([
      ['no-silent-loss', fail('missed', [evidence[lossAt]!])],
      ['no-silent-stall', fail('never answered', [evidence[stallAt]!])],
    ]),
  );
}

describe('root causes', () => {
  test('failures resting on the same step of the same run: the first by precedence is the cause, the others name it', () => {
    const { record, evidence } = scenario('coverage:1');
    const verdicts = new Verdicts(ids);
    verdicts.add(
      record,
      judged([
        ['at-most-once-effect', fail('ran twice', [evidence[2]!])],
        ['no-silent-loss', fail('missed c1#1', [evidence[2]!])],
        ['unknown-cursor-rejected', fail('200 to an unknown cursor', [evidence[2]!])],
        ['no-silent-stall', fail('never answered', [evidence[2]!])],
      ]),
    );
    const results = verdicts.results();
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    // statuses stay
    expect(results.map((r) => r.status)).toEqual(['fail', 'fail', 'fail', 'fail', 'pass']);
    expect(byId['unknown-cursor-rejected']!.causedBy).toBeUndefined();
    for (const id of ['no-silent-loss', 'no-silent-stall', 'at-most-once-effect']) {
      expect(byId[id]!.causedBy, id).toEqual({ property: 'unknown-cursor-rejected', step: 3 });
    }
  });

  test('without the primary failure, the next by precedence is the cause: loss before stall before double effect', () => {
    const { record, evidence } = scenario('coverage:1', false);
    const verdicts = new Verdicts(ids);
    verdicts.add(
      record,
      judged([
        ['at-most-once-effect', fail('ran twice', [evidence[1]!])],
        ['no-silent-stall', fail('never answered', [evidence[1]!])],
        ['no-silent-loss', fail('missed', [evidence[1]!])],
      ]),
    );
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['no-silent-loss']!.causedBy).toBeUndefined();
    expect(byId['no-silent-stall']!.causedBy).toEqual({ property: 'no-silent-loss', step: 2 });
    expect(byId['at-most-once-effect']!.causedBy).toEqual({ property: 'no-silent-loss', step: 2 });
    expect(causePrecedence.indexOf('no-silent-loss')).toBeLessThan(causePrecedence.indexOf('no-silent-stall'));
  });

  test('different steps, or different runs: no cause, each failure stands alone', () => {
    const a = scenario('coverage:1', false);
    const verdicts = new Verdicts(ids);
    verdicts.add(
      a.record,
      judged([
        ['no-silent-loss', fail('missed', [a.evidence[0]!])],
        ['no-silent-stall', fail('never answered', [a.evidence[1]!])],
      ]),
    );
    const b = scenario('coverage:2', false);
    verdicts.add(b.record, judged([['order-preserved', fail('out of order', [b.evidence[0]!])]]));
    // a shorter run for at-most-once-effect than for the others: a different run
    const c = scenario('coverage:3', false);
    c.record.steps.pop();
    verdicts.add(c.record, judged([['at-most-once-effect', fail('ran twice', [c.evidence[0]!])]]));
    expect(verdicts.results().filter((r) => r.causedBy)).toEqual([]);
  });

  test('across runs: a consequence is reported with a run where its cause fails on the same step, the cause with the run that shows most', () => {
    const verdicts = new Verdicts(ids);
    // The shortest runs show each failure alone; a longer one shows the loss beside its cause.
    const alone = scenario('coverage:1', false);
    alone.record.steps.pop();
    verdicts.add(alone.record, judged([['unknown-cursor-rejected', fail('200 to an unknown cursor', [alone.evidence[0]!])]]));
    const lossAlone = scenario('coverage:2', false);
    lossAlone.record.steps.pop();
    verdicts.add(lossAlone.record, judged([['no-silent-loss', fail('missed', [lossAlone.evidence[1]!])]]));
    const both = scenario('coverage:3', false);
    verdicts.add(
      both.record,
      judged([
        ['unknown-cursor-rejected', fail('200 to an unknown cursor', [both.evidence[2]!])],
        ['no-silent-loss', fail('missed', [both.evidence[2]!])],
        ['order-preserved', fail('out of order', [both.evidence[0]!])],
      ]),
    );
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['unknown-cursor-rejected']!.counterexample!.path).toBe('coverage:3');
    expect(byId['no-silent-loss']!.counterexample!.path).toBe('coverage:3');
    expect(byId['no-silent-loss']!.causedBy).toEqual({ property: 'unknown-cursor-rejected', step: 3 });
    // The reason is the one judged in the run shown.
    expect(byId['no-silent-loss']!.reason).toBe('missed');
    // A failure on another step of that run stands alone.
    expect(byId['order-preserved']!.causedBy).toBeUndefined();
  });

  test('a cause reported with another run: the consequence is not said to share it, and stands alone', () => {
    const verdicts = new Verdicts(ids);
    const wide = scenario('coverage:4', false);
    verdicts.add(
      wide.record,
      judged([
        ['unknown-cursor-rejected', fail('200', [wide.evidence[2]!])],
        ['no-silent-stall', fail('never answered', [wide.evidence[2]!])],
        ['at-most-once-effect', fail('ran twice', [wide.evidence[2]!])],
      ]),
    );
    const narrow = scenario('coverage:5', false);
    verdicts.add(
      narrow.record,
      judged([
        ['unknown-cursor-rejected', fail('200', [narrow.evidence[1]!])],
        ['no-silent-loss', fail('missed', [narrow.evidence[1]!])],
      ]),
    );
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['unknown-cursor-rejected']!.counterexample!.path).toBe('coverage:4');
    expect(byId['no-silent-stall']!.causedBy).toEqual({ property: 'unknown-cursor-rejected', step: 3 });
    expect(byId['no-silent-loss']!.counterexample!.path).toBe('coverage:5');
    expect(byId['no-silent-loss']!.causedBy).toBeUndefined();
    // Every run that broke it broke the unknown-cursor property at the same step: it never failed alone.
    expect(byId['no-silent-loss']!.followsFrom).toBe('unknown-cursor-rejected');
    expect(byId['no-silent-stall']!.followsFrom).toBe('unknown-cursor-rejected');
    expect(byId['unknown-cursor-rejected']!.followsFrom).toBeUndefined();
  });

  test('a shrunk run that shows a failure on its own counts as such', () => {
    const verdicts = new Verdicts(ids);
    addLossAndStall(verdicts, 'coverage:1', 1, 1);
    expect(verdicts.results().find((r) => r.id === 'no-silent-stall')!.followsFrom).toBe('no-silent-loss');
    const shrunk = scenario('7', false);
    verdicts.setCounterexample('no-silent-stall', shrunk.record, judged([['no-silent-stall', fail('never answered', [shrunk.evidence[0]!])]]));
    expect(verdicts.results().find((r) => r.id === 'no-silent-stall')!.followsFrom).toBeUndefined();
  });

  test('a failure that some run shows on its own does not follow from another, wherever it is reported', () => {
    const verdicts = new Verdicts(ids);
    addLossAndStall(verdicts, 'coverage:1', 1, 1);
    addLossAndStall(verdicts, 'coverage:2', 0, 1);
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    // Reported beside its cause, but once it broke on its own.
    expect(byId['no-silent-stall']!.causedBy).toEqual({ property: 'no-silent-loss', step: 2 });
    expect(byId['no-silent-stall']!.followsFrom).toBeUndefined();
    expect(byId['no-silent-loss']!.followsFrom).toBeUndefined();
  });

  test('the choice does not depend on the order runs finish in', () => {
    const runs = ['coverage:6', 'coverage:7', 'coverage:8'].map((path, i) => {
      const { record, evidence } = scenario(path, false);
      const entries: Array<[PropertyId, Judgement]> = [['no-silent-loss', fail('missed', [evidence[i]!])]];
      if (i > 0) entries.push(['no-silent-stall', fail('never answered', [evidence[i]!])]);
      return [record, judged(entries)] as const;
    });
    const pick = (order: number[]) => {
      const verdicts = new Verdicts(ids);
      for (const i of order) verdicts.add(runs[i]![0], runs[i]![1]);
      return verdicts.results().map((r) => [r.id, r.counterexample?.path, r.causedBy]);
    };
    expect(pick([0, 1, 2])).toEqual(pick([2, 1, 0]));
    expect(pick([1, 2, 0])).toEqual(pick([0, 2, 1]));
    expect(pick([0, 1, 2]).find(([id]) => id === 'no-silent-stall')).toEqual(['no-silent-stall', 'coverage:7', { property: 'no-silent-loss', step: 2 }]);
  });

  test("a shrunk run replaces the cause's counterexample for good, and its consequences go with it", () => {
    const verdicts = new Verdicts(ids);
    const first = scenario('5', false);
    const both = (e: number[], at: number) =>
      judged([
        ['no-silent-loss', fail('missed', [e[at]!])],
        ['at-most-once-effect', fail('ran twice', [e[at]!])],
      ]);
    verdicts.add(first.record, both(first.evidence, 2));
    expect(verdicts.group('no-silent-loss').sort()).toEqual(['at-most-once-effect', 'no-silent-loss']);
    expect(verdicts.explained('at-most-once-effect')).toBe(true);
    const shrunk = scenario('5:0', false);
    shrunk.record.steps.pop();
    verdicts.setCounterexample('no-silent-loss', shrunk.record, both(shrunk.evidence, 1));
    // A later run, shorter still, does not replace a shrunk counterexample.
    const later = scenario('9', false);
    later.record.steps = later.record.steps.slice(0, 1);
    verdicts.add(later.record, judged([['no-silent-loss', fail('missed', [later.evidence[0]!])]]));
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['no-silent-loss']!.counterexample!.path).toBe('5:0');
    expect(byId['at-most-once-effect']!.counterexample!.path).toBe('5:0');
    expect(byId['at-most-once-effect']!.causedBy).toEqual({ property: 'no-silent-loss', step: 2 });
    expect(() => verdicts.setCounterexample('order-preserved', shrunk.record, both(shrunk.evidence, 1))).toThrow(/does not fail/);
  });

  test('evidence after a divergence rests on the divergence: the candidate left the model there', () => {
    const { record, evidence } = scenario('coverage:1');
    record.steps[2]!.expected = undefined;
    record.steps[1]!.expected = { status: 404 };
    expect(anchorStep(record, fail('x', [evidence[2]!]))).toBe(2);
    expect(anchorStep(record, fail('x', [evidence[0]!]))).toBe(1);
    expect(anchorStep(record, fail('x'))).toBe(2);
    record.steps[1]!.expected = undefined;
    expect(anchorStep(record, fail('x'))).toBeUndefined();
  });
});

describe('graded failures', () => {
  test("a property is reported at the level of its gravest failure, with that failure's run, whatever the order", () => {
    const lossOfNotification = scenario('coverage:1', false);
    const lossOfResponse = scenario('coverage:2', false);
    const runs = [
      [lossOfNotification.record, judged([['no-silent-loss', failAt('policy', 'never got notification 2', [lossOfNotification.evidence[0]!])]])],
      [lossOfResponse.record, judged([['no-silent-loss', fail('never got the response', [lossOfResponse.evidence[0]!])]])],
    ] as const;
    for (const order of [
      [0, 1],
      [1, 0],
    ]) {
      const verdicts = new Verdicts(ids);
      for (const i of order) verdicts.add(runs[i]![0], runs[i]![1]);
      const loss = verdicts.results().find((r) => r.id === 'no-silent-loss')!;
      expect([loss.level, loss.reason, loss.counterexample?.path]).toEqual(['should', 'never got the response', 'coverage:2']);
    }
    const notificationsOnly = new Verdicts(ids);
    notificationsOnly.add(runs[0][0], runs[0][1]);
    expect(notificationsOnly.results().find((r) => r.id === 'no-silent-loss')!.level).toBe('policy');
    expect(notificationsOnly.levelOf('no-silent-loss')).toBe('policy');
  });

  test("a consequence keeps its own run where its cause's run shows it graded lower", () => {
    const x = scenario('coverage:1', false);
    const y = scenario('coverage:2', false);
    const verdicts = new Verdicts(ids);
    verdicts.add(
      x.record,
      judged([
        ['unknown-cursor-rejected', fail('200 to an unknown cursor', [x.evidence[0]!])],
        ['no-silent-loss', failAt('policy', 'never got notification 2', [x.evidence[0]!])],
      ]),
    );
    verdicts.add(
      y.record,
      judged([
        ['unknown-cursor-rejected', fail('200 to an unknown cursor', [y.evidence[0]!])],
        ['no-silent-loss', fail('never got the response', [y.evidence[0]!])],
      ]),
    );
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['unknown-cursor-rejected']!.counterexample!.path).toBe('coverage:1');
    expect([byId['no-silent-loss']!.level, byId['no-silent-loss']!.counterexample!.path]).toEqual(['should', 'coverage:2']);
    // What a shrink of that run keeps: each failure of the group at its level there.
    expect(Object.fromEntries(verdicts.groupLevels('no-silent-loss'))).toEqual({ 'unknown-cursor-rejected': 'policy', 'no-silent-loss': 'should' });
  });
});

describe('divergences', () => {
  test('one finding per distinct divergence, the shortest run kept, runs counted', () => {
    const verdicts = new Verdicts(ids);
    const long = scenario('coverage:9');
    verdicts.add(long.record, judged([]));
    const short = scenario('coverage:2');
    short.record.steps = short.record.steps.slice(0, 3);
    verdicts.add(short.record, judged([]));
    const other = scenario('coverage:5');
    other.record.steps[2]!.expected = { missing: 'connection' };
    verdicts.add(other.record, judged([]));
    verdicts.add(scenario('coverage:7', false).record, judged([]));
    const found = verdicts.divergences();
    expect(found).toHaveLength(2);
    const same = found.find((d) => d.step.expected.status === 404)!;
    expect(same.runs).toBe(2);
    expect(same.path).toBe('coverage:2');
    expect(same.step.index).toBe(3);
    expect(same.steps).toHaveLength(3);
  });
});

describe('skip reasons', () => {
  test("when the time budget ran out, a skip says so and keeps what the scenarios that ran said (a reason of the candidate's design holds with more time too)", () => {
    const { record } = scenario('coverage:1', false);
    const verdicts = new Verdicts(ids);
    verdicts.add(
      record,
      judged([
        ['unknown-cursor-rejected', skip('resumption not offered')],
        ['no-silent-loss', skip('no resume was accepted')],
      ]),
    );
    verdicts.skipRest("the suite's time budget (30 s) ran out first");
    const byId = Object.fromEntries(verdicts.results().map((r) => [r.id, r]));
    expect(byId['unknown-cursor-rejected']).toMatchObject({
      status: 'skip',
      reason: "the suite's time budget (30 s) ran out first; in the scenarios that ran: resumption not offered",
    });
    expect(byId['no-silent-loss']).toMatchObject({
      status: 'skip',
      reason: "the suite's time budget (30 s) ran out first; in the scenarios that ran: no resume was accepted",
    });
    // What was judged stays judged.
    expect(byId['order-preserved']!.status).toBe('pass');
  });

  test('a property no scenario reached: the budget alone, or without one, that nothing exercised it', () => {
    const verdicts = new Verdicts(['order-preserved']);
    expect(verdicts.results()[0]).toMatchObject({ status: 'skip', reason: 'not exercised by any scenario' });
    verdicts.skipRest('out of time');
    expect(verdicts.results()[0]).toMatchObject({ status: 'skip', reason: 'out of time' });
  });
});
