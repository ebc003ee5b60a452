/** SSE as the proxy re-frames it: an answer's text cut into frames, each parsed, and JSON-RPC messages out of a body. */
import type { WireMessage } from '../../../properties/client/history.js';

/** One SSE frame: its raw text (forwarded as is) and its fields. */
export interface SseFrame {
  raw: string;
  id?: string;
  event?: string;
  data: string;
}

/** The fields of one frame's raw text. */
export function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { raw, data: '' };
  const data: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') data.push(value);
  }
  frame.data = data.join('\n');
  return frame;
}

/** The JSON-RPC messages of a body or a frame's data (one, or a batch); none when it is not JSON. */
export function messagesOf(text: string): WireMessage[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((m): m is WireMessage => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

/** A sink for an SSE body's text chunks that calls `onFrame` with each complete, non-empty frame, in order. */
export function frameSplitter(onFrame: (frame: SseFrame) => void): (chunk: string) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    const parts = buffered.split(/\r?\n\r?\n/);
    buffered = parts.pop() ?? '';
    for (const raw of parts) {
      if (raw.trim() === '') continue;
      onFrame(parseFrame(raw));
    }
  };
}
