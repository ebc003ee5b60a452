import { bridgingAlone } from '../model/claims/bridging.js';
import { replay, formatTrace } from '../model/trace.js';
const j = bridgingAlone.judge();
console.log(j.verdict, j.finding); console.log(j.tables[0]!.rows.map((r) => r.join(' ')).join('\n'));
for (const t of j.traces) { console.log(t.title); console.log(formatTrace(replay(t.policy, t.bounds, t.path))); }
