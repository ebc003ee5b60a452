/**
 * The model as the client checker's oracle: explored under a client mutant's knobs, it predicts
 * which client properties some fault breaks and derives the scenario (its shortest path, staged as
 * proxy faults); the checker then runs that scenario on the real mutant and on the correct client.
 * Prediction and finding must agree: the mutant breaks exactly the predicted properties there, and
 * the correct client breaks none. Knobs the model lacks are reported outside its prediction.
 */
import { describe, expect, it } from 'vitest';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import type { ClientFactory } from '../../src/check-client/adapters/contract.js';
import { describeFault } from '../../src/check-client/faults.js';
import { modelCutScenarios, modelPrediction, scenarioFromPath } from '../../src/check-client/model-scenarios.js';
import { judgeClientHistory, runScenario } from '../../src/check-client/run-scenario.js';
import type { ClientScenario } from '../../src/check-client/scenarios.js';
import { clientMutants } from '../../src/check-client/mutants/index.js';

// Generous: under a loaded machine a resume must still come before the call times out.
const timeoutMs = 1000;

async function broken(factory: ClientFactory, scenarios: ClientScenario[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const scenario of scenarios) {
    const { history, error } = await runScenario(factory, scenario, timeoutMs);
    expect(error, scenario.name).toBeUndefined();
    for (const { id, verdict } of judgeClientHistory(history)) if (verdict.status === 'fail') ids.add(id);
  }
  return [...ids].sort();
}

describe('the model predicts which faults make which client mutants lose', () => {
  it('derives scenarios from shortest paths: a drop with frames in the inbox is an undrained cut', () => {
    const cuts = modelCutScenarios();
    expect(cuts.map((s) => s.name)).toEqual(['model:cut-undrained', 'model:cut-in-flight', 'model:cut-processed']);
    expect(cuts[0]!.faults.map(describeFault)).toEqual(['cut POST /mcp tools/call #1 after 2 frame(s), the last undrained']);
    expect(() => scenarioFromPath('t', 't', 'reference', [{ type: 'DELETE' }], false)).toThrow(/cannot stage DELETE/);
    // The processed and in-flight states stage the same cut: after the priming event and one notification.
    expect(cuts[1]!.faults).toEqual(cuts[2]!.faults);
    expect(cuts[1]!.faults.map(describeFault)).toEqual(['cut POST /mcp tools/call #1 after 2 frame(s)']);
  });

  for (const mutant of clientMutants) {
    const prediction = modelPrediction(mutant.knobs);
    if (prediction.outside.length > 0) {
      it(`${mutant.name}: outside the model (${prediction.outside.join(', ')}), so no prediction`, () => {
        expect(prediction.predicted).toEqual([]);
        expect(prediction.scenarios).toEqual([]);
      });
      continue;
    }
    it(`${mutant.name}: predicted ${prediction.predicted.join(', ') || 'nothing'}; the checker finds exactly that on the model's scenarios, the correct client nothing`, async () => {
      // Every prediction is a property the mutant's catalog entry lists.
      for (const id of prediction.predicted) expect(mutant.breaks).toContain(id);
      // Nothing predicted: no state the model reaches breaks it, so none of its cut states may either.
      const scenarios = prediction.scenarios.length > 0 ? prediction.scenarios : modelCutScenarios();
      expect(await broken(mutant.factory, scenarios)).toEqual(prediction.predicted);
      expect(await broken(checkingClientFactory(), scenarios)).toEqual([]);
    }, 30_000);
  }

  it('predicts loss for the cursor-on-receive client and duplicates for the no-dedup one only against an inclusive replay', () => {
    expect(modelPrediction({}).predicted).toEqual([]);
    expect(modelPrediction({ cursorAdvance: 'onReceive' }).predicted).toEqual(['client-delivers-exactly-once', 'client-resume-cursor-processed']);
    const noDedup = modelPrediction({ dedup: false });
    expect(noDedup.predicted).toEqual(['client-delivers-exactly-once']);
    expect(noDedup.scenarios.map((s) => s.policyName)).toEqual(['reference with replay=inclusive']);
    // A re-sent call needs a timeout, which the model reaches only through a stall: not against the reference server.
    expect(modelPrediction({ retryOnTimeout: true }).predicted).toEqual([]);
  });
});
