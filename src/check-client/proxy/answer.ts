/** The `answer` fault: the proxy answers a request itself instead of forwarding it. */
import type http from 'node:http';
import type { Fault } from '../faults.js';
import { describeFault } from '../faults.js';
import type { ProxyContext } from './context.js';

/** Answers exchange `exchange` with the fault's status: 200 is a quiet SSE stream held open, any other a JSON-RPC error body. */
export function answerInstead(ctx: ProxyContext, exchange: number, res: http.ServerResponse, answer: Extract<Fault, { kind: 'answer' }>): void {
  const { clock } = ctx;
  ctx.record({ kind: 'fault', at: clock.tick(), exchange, fault: 'answer', detail: describeFault(answer) });
  ctx.record({ kind: 'response', at: clock.tick(), exchange, status: answer.status, stream: answer.status === 200, messages: [] });
  if (answer.status === 200) {
    // A quiet stream: the head, then nothing until either side closes.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    res.on('close', () => ctx.record({ kind: 'end', at: clock.tick(), exchange, cut: true }));
    return;
  }
  const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `Fault: answered ${answer.status} by the checker's proxy` } });
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  ctx.record({ kind: 'end', at: clock.tick(), exchange, cut: false });
}
