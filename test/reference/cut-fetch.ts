/**
 * A `fetch` for the SDK client that cuts one SSE response mid-way, as a dropped connection does:
 * the next `tools/call` POST answered with a stream is let through up to `frames` complete SSE
 * frames, then its body errors and the rest is cancelled. The server has written everything; the
 * frames after the cut are lost in flight, and only a resume recovers them. Used by the tests and
 * by the reference-server benchmark.
 */

/** The wrapped fetch and a promise that settles once the cut has happened. */
export interface CuttingFetch {
  fetch: typeof fetch;
  cut: Promise<void>;
}

export function cuttingFetch(frames: number): CuttingFetch {
  let armed = true;
  let markCut: () => void = () => {};
  const cut = new Promise<void>((resolve) => (markCut = resolve));
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const isCall = init?.method === 'POST' && typeof init.body === 'string' && init.body.includes('"tools/call"');
    if (!armed || !isCall || !response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      return response;
    }
    armed = false;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let passed = 0;
    let pending = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        pending += decoder.decode(value, { stream: true });
        let out = '';
        for (let end = pending.indexOf('\n\n'); end >= 0 && passed < frames; end = pending.indexOf('\n\n')) {
          out += pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          passed++;
        }
        if (out !== '') controller.enqueue(encoder.encode(out));
        if (passed >= frames) {
          void reader.cancel().catch(() => {});
          controller.error(new TypeError('terminated: connection cut'));
          markCut();
        }
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: wrapped as typeof fetch, cut };
}
