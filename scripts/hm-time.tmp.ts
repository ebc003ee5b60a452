import { claims } from '../model/claims/index.js';
const only = process.argv.slice(2);
for (const c of claims) { if (only.length && !only.some(o=>c.id.includes(o))) continue; const t = performance.now(); const j = c.judge(); console.log(c.id, j.verdict, Math.round(performance.now()-t), 'ms'); if (only.length) { console.log(j.finding); for (const t of j.tables) { console.log(t.header.join(' | ')); for (const r of t.rows) console.log(r.join(' | ')); } } }
