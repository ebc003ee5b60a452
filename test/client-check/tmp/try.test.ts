import { it, expect } from 'vitest';
import { runClientCheck } from '../../../src/client-check/run.js';
import { checkingClientFactory } from '../../../src/client-adapters/checking-client.js';
import { clientMutants } from '../../../src/client-mutants/index.js';
it('try', async () => {
  for (const [name, knobs] of [['drain', {}], ['receive', { cursorAdvance: 'onReceive' }], ...clientMutants.filter(m => m.name !== 'cursor-on-receive').map(m => [m.name, m.knobs])] as const) {
    const t = Date.now();
    const r = await runClientCheck(checkingClientFactory(knobs as never), { name, timeoutMs: 800 });
    console.log(name, Date.now() - t, 'ms', JSON.stringify(r.properties.map(p => [p.id, p.status])), JSON.stringify(r.scenarios.filter(s => s.broke.length || s.error).map(s => [s.name, s.broke, s.error])));
  }
}, 200_000);
