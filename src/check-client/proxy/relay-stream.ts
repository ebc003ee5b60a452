/**
 * A server's SSE answer, relayed frame by frame under the exchange's faults: a cut falls exactly
 * between two frames (an undrained one writes its last frame and the close in one turn), a delay
 * holds one frame, priming events may be withheld, and an expiring exchange forwards nothing before
 * the session is gone.
 */
import type { WireEntry } from '../../../properties/client/history.js';
import { describeFault } from '../faults.js';
import type { Exchange, ProxyContext } from './context.js';
import type { FaultPlan } from './fault-plan.js';
import { frameSplitter, messagesOf, type SseFrame } from './sse-frames.js';

/** Relays the stream until the server ends it, the client goes or a cut ends it. */
export async function relayStream(
  ctx: ProxyContext,
  x: Exchange,
  plan: FaultPlan,
  /** Called with the data of each `endpoint` frame forwarded. */
  onEndpoint: (data: string) => void,
): Promise<void> {
  const { clock } = ctx;
  const { res, upstreamReq, upstreamRes, status, sessionId, number: exchange } = x;
  const { cut, delays } = plan;
  const response: WireEntry = { kind: 'response', at: clock.tick(), exchange, status, stream: true, messages: [] };
  if (sessionId !== undefined) response.sessionId = sessionId;
  ctx.record(response);
  const responseHeaders = { ...upstreamRes.headers };
  delete responseHeaders['transfer-encoding'];
  delete responseHeaders['content-length'];
  res.writeHead(status, responseHeaders);
  res.flushHeaders();

  let forwarded = 0;
  let ended = false;
  const cutNow = async (undrained: boolean, last: SseFrame | undefined): Promise<void> => {
    ended = true;
    ctx.record({ kind: 'fault', at: clock.tick(), exchange, fault: undrained ? 'cut-undrained' : 'cut', detail: describeFault(cut!) });
    upstreamReq.destroy();
    if (undrained && last) {
      // The frame and the close leave in one turn: the client parses the frame as the connection dies.
      res.write(last.raw + '\n\n');
    }
    res.socket?.end();
    await x.finish(true);
    await x.expireIfAsked();
  };
  if (cut && cut.frames === 0) {
    await cutNow(false, undefined);
    return;
  }

  // Frames are forwarded one at a time, in order, whatever the delays.
  let queue = Promise.resolve();
  const upstreamDone = new Promise<void>((resolve) => {
    upstreamRes.on('end', resolve);
    upstreamRes.on('error', () => resolve());
    upstreamRes.on('close', resolve);
  });
  const forward = async (frame: SseFrame): Promise<void> => {
    // An exchange that expires its session forwards nothing before the server has ended the
    // answer and the session is gone: a client that acts on the result meets the expiry.
    if (plan.expire) {
      await upstreamDone;
      await x.expireIfAsked();
    }
    if (ended || ctx.closed() || res.destroyed) return;
    if (plan.withholdPriming && frame.id !== undefined && frame.data === '' && frame.event === undefined) {
      ctx.record({ kind: 'fault', at: clock.tick(), exchange, fault: 'withhold-priming', detail: `priming event ${frame.id} not forwarded` });
      return;
    }
    const number = forwarded + 1;
    const delay = delays.find((d) => d.frame === number);
    if (delay) {
      ctx.record({ kind: 'fault', at: clock.tick(), exchange, fault: 'delay', detail: describeFault(delay) });
      await ctx.wait(delay.ms);
      if (ctx.closed() || res.destroyed) return;
    }
    forwarded = number;
    const entry: WireEntry = { kind: 'frame', at: clock.tick(), exchange, data: frame.data };
    if (frame.id !== undefined) entry.id = frame.id;
    if (frame.event !== undefined) entry.event = frame.event;
    const message = frame.event === undefined || frame.event === 'message' ? messagesOf(frame.data)[0] : undefined;
    if (message) entry.message = message;
    if (frame.event === 'endpoint') onEndpoint(frame.data);
    ctx.record(entry);
    if (cut && number === cut.frames) {
      if (cut.undrained) {
        await cutNow(true, frame);
        return;
      }
      res.write(frame.raw + '\n\n');
      if (message) await ctx.applicationHas(message, entry.at);
      else await ctx.wait(20);
      await cutNow(false, undefined);
      return;
    }
    res.write(frame.raw + '\n\n');
  };
  upstreamRes.setEncoding('utf8');
  upstreamRes.on(
    'data',
    frameSplitter((frame) => {
      queue = queue.then(() => forward(frame));
    }),
  );
  // The client went away (or was cut): the server learns it as a lost connection.
  res.on('close', () => {
    if (!ended) upstreamReq.destroy();
  });
  await upstreamDone;
  await queue;
  if (ended) return;
  ended = true;
  await x.expireIfAsked();
  if (!res.destroyed) res.end();
  await x.finish(false);
}
