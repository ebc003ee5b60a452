/** The fixture tool calls in a history: `emit`, `emit_unsolicited` and `session_info`. */
import type { HistoryView, RequestView } from './history-view.js';
import { isObject } from './messages.js';

export interface FixtureCall {
  request: RequestView;
  tool: 'emit' | 'emit_unsolicited' | 'session_info';
  label: string;
  count: number;
}

/** Every `tools/call` of a fixture tool, in order. */
export function fixtureCalls(view: HistoryView): FixtureCall[] {
  const calls: FixtureCall[] = [];
  for (const request of view.requests) {
    if (request.method !== 'tools/call' || !isObject(request.params)) continue;
    const { name, arguments: args } = request.params;
    if (name !== 'emit' && name !== 'emit_unsolicited' && name !== 'session_info') continue;
    const a = isObject(args) ? args : {};
    calls.push({
      request,
      tool: name,
      label: typeof a.label === 'string' ? a.label : '',
      count: typeof a.count === 'number' ? a.count : 0,
    });
  }
  return calls;
}
