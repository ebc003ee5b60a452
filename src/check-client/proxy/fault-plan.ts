/** Which of a scenario's faults apply to a request: matching, counting occurrences, and the legacy sessions seen. */
import type { Fault, Match } from '../faults.js';
import type { RequestInfo } from './request.js';

/** The faults one exchange is under. */
export interface FaultPlan {
  /** Answer instead of forwarding. */
  answer?: Extract<Fault, { kind: 'answer' }>;
  cut?: Extract<Fault, { kind: 'cut' }>;
  delays: Extract<Fault, { kind: 'delay' }>[];
  /** Terminate the session at the server once the answer has ended. */
  expire: boolean;
  /** Drop priming events. */
  withholdPriming: boolean;
}

/** The faults of a scenario, routed to the requests they match. */
export class FaultRouter {
  private readonly counts = new Map<Fault, number>();
  /** Sessions a legacy `endpoint` event announced. */
  private readonly legacySessions = new Set<string>();

  constructor(private readonly faults: readonly Fault[]) {}

  /** Notes the session an `endpoint` event's data announces, as legacy. */
  noteEndpoint(data: string): void {
    const session = /[?&]sessionId=([^&]+)/.exec(data)?.[1];
    if (session) this.legacySessions.add(decodeURIComponent(session));
  }

  /** The faults `req` is under; every fault it matches counts one occurrence. */
  plan(req: RequestInfo): FaultPlan {
    const hit = this.applicable(req);
    return {
      ...optional(
        'answer',
        hit.find((f): f is Extract<Fault, { kind: 'answer' }> => f.kind === 'answer'),
      ),
      ...optional(
        'cut',
        hit.find((f): f is Extract<Fault, { kind: 'cut' }> => f.kind === 'cut'),
      ),
      delays: hit.filter((f): f is Extract<Fault, { kind: 'delay' }> => f.kind === 'delay'),
      expire: hit.some((f) => f.kind === 'expire'),
      withholdPriming: this.faults.some((f) => f.kind === 'withholdPriming') && req.path === '/mcp',
    };
  }

  private matches(m: Match, req: RequestInfo): boolean {
    return (
      (m.method === undefined || m.method === req.method) &&
      (m.path === undefined || m.path === req.path) &&
      (m.rpc === undefined || m.rpc === req.rpc) &&
      (m.resume === undefined || m.resume === (req.method === 'GET' && req.lastEventId !== undefined)) &&
      (m.legacySession === undefined || m.legacySession === (req.sessionId !== undefined && this.legacySessions.has(req.sessionId)))
    );
  }

  /** The faults whose match (and occurrence) this request is. */
  private applicable(req: RequestInfo): Fault[] {
    const hit: Fault[] = [];
    for (const fault of this.faults) {
      if (fault.kind === 'withholdPriming') continue;
      const m = fault.kind === 'expire' ? fault.after : fault.on;
      if (!this.matches(m, req)) continue;
      const n = (this.counts.get(fault) ?? 0) + 1;
      this.counts.set(fault, n);
      if (m.nth === undefined || m.nth === n) hit.push(fault);
    }
    return hit;
  }
}

/** `{ [key]: value }` when there is a value, else nothing (optional properties stay absent). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}
