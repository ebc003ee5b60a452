// Scratch (H-catalog). Deleted before hand-off.
import { mutantByName } from '../src/mutants/index.js';
import { probeAbilities } from '../src/suite/abilities.js';
import { coverageBounds } from '../src/suite/coverage.js';
import { drivableSteps, oracleWorld } from '../src/suite/lockstep.js';
import { referenceClient } from '../src/suite/run-suite.js';
import { step as stepWorld } from '../model/world.js';
const m = mutantByName('unknown-cursor-empty-stream');
const c = await m.start();
const abilities = await probeAbilities({ name: 'x', url: c.url }, 2000);
const bounds = coverageBounds(abilities);
let world = oracleWorld(referenceClient, bounds);
const seq: any[] = [{ type: 'INITIALIZE', transport: 'streamable' }, { type: 'CALL', unsolicited: false }, {type:'SEND',stream:'r1'},{type:'RECEIVE',stream:'r1'},{type:'DRAIN',stream:'r1'},{type:'SEND',stream:'r1'},{type:'RECEIVE',stream:'r1'},{type:'DRAIN',stream:'r1'}, { type: 'INITIALIZE', transport: 'streamable' }, { type: 'CALL', unsolicited: false }];
for (const s of seq) { const ok = drivableSteps(world, abilities).some((x) => JSON.stringify(x) === JSON.stringify(s)); console.log(JSON.stringify(s), ok); if (!ok) { console.log(JSON.stringify(drivableSteps(world, abilities))); break; } world = stepWorld(world, s); }
console.log(JSON.stringify(world.client.requests), JSON.stringify(world.client.streams.map(s=>s.id)), world.client.staleCursor);
console.log(JSON.stringify(drivableSteps(world, abilities)));
await c.stop();
