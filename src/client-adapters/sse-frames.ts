/** Incremental SSE framing for the reference client: bytes in, complete frames out. */

/** One SSE event as the client parses it. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Splits a text stream into SSE events; `push` returns the events completed by the chunk. */
export class SseFramer {
  private buffer = '';

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const parts = this.buffer.split(/\r?\n\r?\n/);
    this.buffer = parts.pop() ?? '';
    const events: SseEvent[] = [];
    for (const raw of parts) {
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      let any = false;
      for (const line of raw.split(/\r?\n/)) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        any = true;
        if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'data') data.push(value);
      }
      event.data = data.join('\n');
      if (any) events.push(event);
    }
    return events;
  }
}
