/**
 * Finds out what a candidate can be asked: which transports answer `initialize`, which fixture
 * tools `tools/list` shows, and whether it offers resumption (sends SSE event IDs on the streams
 * a client would resume). A candidate that answers neither transport cannot be checked, nor one
 * whose named endpoint (`CandidateTarget.required`) does not answer, whatever the other does.
 */
import { randomBytes } from 'node:crypto';
import type { Transport } from '../../model/transport.js';
import type { ReceiveEntry } from '../../properties/history.js';
import { isObject } from '../../properties/messages.js';
import { CheckClient, describeOutcome, HistoryRecorder, type InitializeOutcome } from '../wire/index.js';
import type { CandidateAbilities, CandidateTarget, ResumptionOffer } from './types.js';

/** The candidate could not be checked at all (exit status 2). */
export class CandidateUnusable extends Error {
  override name = 'CandidateUnusable';
  /** The candidate's URL when the sentence is about it: `message` is then `${url} ${said}`. */
  readonly url: string | undefined;
  /** What is said: the whole message, or what is said of `url`. */
  readonly said: string;
  /** The HTTP error statuses (400 and up) initialize, or the legacy GET before it, was answered with: a 401 or 403 is a gate. */
  readonly statuses: readonly number[];

  constructor(said: string, { url, statuses = [] }: { url?: string; statuses?: readonly number[] } = {}) {
    super(url === undefined ? said : `${url} ${said}`);
    this.url = url;
    this.said = said;
    this.statuses = statuses;
  }
}

type Probe = { ok: true; tools: string[]; unlisted?: string } | { ok: false; reason: string; status?: number };

/** The HTTP error status a failed initialize (or the legacy GET before it) was answered with, if any. */
function errorStatus(init: Extract<InitializeOutcome, { ok: false }>): number | undefined {
  const status = init.outcome?.kind === 'rejected' ? init.outcome.status : (init.legacy?.answer ?? init.handle?.answer)?.status;
  return status !== undefined && status >= 400 ? status : undefined;
}

async function tryTransport(target: CandidateTarget, transport: Transport, timeoutMs: number): Promise<Probe> {
  const client = new CheckClient({ baseUrl: target.url, paths: target.paths ?? {}, headers: target.headers ?? {}, timeoutMs });
  try {
    const init = await client.initialize({ transport });
    if (!init.ok) {
      const status = errorStatus(init);
      return { ok: false, reason: init.reason, ...(status !== undefined ? { status } : {}) };
    }
    const list = await client.listTools();
    const outcome = await list.response({ timeoutMs });
    // No tool list to read: say why, rather than that the candidate has no fixture tools.
    if (outcome.kind !== 'response') return { ok: true, tools: [], unlisted: describeOutcome(outcome) };
    const result = outcome.message.result;
    const tools =
      isObject(result) && Array.isArray(result.tools) ? result.tools.flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : [])) : [];
    if (transport === 'streamable') await client.deleteSession();
    return { ok: true, tools };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    client.close();
  }
}

const transportName: Record<Transport, string> = { streamable: 'streamable HTTP', sse: 'legacy HTTP+SSE' };

/** Probes both transports. @throws CandidateUnusable when neither answers `initialize`, or a required one does not. */
export async function probeAbilities(target: CandidateTarget, timeoutMs: number): Promise<CandidateAbilities> {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new CandidateUnusable(`not a URL: ${JSON.stringify(target.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CandidateUnusable(`only http:// and https:// candidates can be checked, got ${url.protocol}//`);
  const [streamable, sse] = await Promise.all([tryTransport(target, 'streamable', timeoutMs), tryTransport(target, 'sse', timeoutMs)]);
  const notes: string[] = [];
  const transports: Transport[] = [];
  // The endpoint each probe used, in full: a wrong path shows in the URL, not only in the status.
  const at = (endpoint: 'mcp' | 'sse', path: string) => `${target.url.replace(/\/$/, '')}${target.paths?.[endpoint] ?? path}`;
  const endpoints: Partial<Record<Transport, string>> = {};
  if (streamable.ok) {
    transports.push('streamable');
    endpoints.streamable = at('mcp', '/mcp');
  } else notes.push(`streamable HTTP at ${at('mcp', '/mcp')}: ${streamable.reason}`);
  if (sse.ok) {
    transports.push('sse');
    endpoints.sse = at('sse', '/sse');
  } else notes.push(`legacy HTTP+SSE at ${at('sse', '/sse')}: ${sse.reason}`);
  const statusOf = (probe: Probe) => (!probe.ok && probe.status !== undefined ? [probe.status] : []);
  if (transports.length === 0)
    throw new CandidateUnusable(`answers initialize under neither transport (${notes.join('; ')})`, {
      url: target.url,
      statuses: [...statusOf(streamable), ...statusOf(sse)],
    });
  const probed = { streamable: { result: streamable, at: at('mcp', '/mcp') }, sse: { result: sse, at: at('sse', '/sse') } };
  for (const transport of target.required ?? []) {
    const { result } = probed[transport];
    if (result.ok) continue;
    const other = probed[transport === 'sse' ? 'streamable' : 'sse'];
    throw new CandidateUnusable(
      `the ${transportName[transport]} endpoint named, ${probed[transport].at}, does not answer initialize (${result.reason}): the endpoint to check must answer it` +
        (other.result.ok
          ? `; ${transportName[transport === 'sse' ? 'streamable' : 'sse']} at ${other.at} does (to check a server of that transport alone, give its endpoint or the base URL ${target.url})`
          : ''),
      { statuses: statusOf(result) },
    );
  }
  const tools = new Set([...(streamable.ok ? streamable.tools : []), ...(sse.ok ? sse.tools : [])]);
  const fixtures = { emit: tools.has('emit'), emitUnsolicited: tools.has('emit_unsolicited'), sessionInfo: tools.has('session_info') };
  const unlisted = [streamable, sse].flatMap((t) => (t.ok && t.unlisted !== undefined ? [t.unlisted] : []));
  if (tools.size === 0 && unlisted.length > 0) {
    notes.push(
      `tools/list got no tool list (${unlisted[0]}): fixture tools unknown, so calls are pings, and properties that need notifications or effects are skipped`,
    );
  } else if (!fixtures.emit) notes.push('no emit fixture tool: calls are pings, and properties that need notifications or effects are skipped');
  const resumption = transports.includes('streamable') ? await probeResumption(target, timeoutMs, fixtures) : undefined;
  return { transports, fixtures, notes, endpoints, ...(resumption ? { resumption } : {}) };
}

/** The first event ID among `frames`, quoted, or undefined. */
function firstId(frames: ReceiveEntry[]): string | undefined {
  const id = frames.find((f) => !!f.id)?.id;
  return id === undefined ? undefined : JSON.stringify(id);
}

/**
 * Whether streamable HTTP offers resumption: event IDs on a POST response stream (initialize and
 * a call: `emit` or `ping`), and on the standalone GET stream (`emit_unsolicited`, when the
 * candidate has it; else unknown). A server without IDs gives a client nothing to resume from.
 */
async function probeResumption(target: CandidateTarget, timeoutMs: number, fixtures: CandidateAbilities['fixtures']): Promise<ResumptionOffer> {
  const recorder = new HistoryRecorder();
  const client = new CheckClient({ baseUrl: target.url, paths: target.paths ?? {}, headers: target.headers ?? {}, timeoutMs, recorder });
  const framesOf = (conns: Set<number>) => recorder.history.entries.filter((e): e is ReceiveEntry => e.type === 'receive' && conns.has(e.conn));
  const post = new Set<number>();
  const standalone = new Set<number>();
  let standaloneProbed = false;
  try {
    const init = await client.initialize({ transport: 'streamable' });
    if (init.ok) {
      const label = `resumption-${randomBytes(3).toString('hex')}`;
      const call = fixtures.emit ? await client.callTool('emit', { label, count: 1 }) : await client.ping();
      await call.response({ timeoutMs });
      for (const e of recorder.history.entries) if (e.type === 'request' && e.method === 'POST') post.add(e.conn);
      if (fixtures.emitUnsolicited) {
        const get = await client.openStandalone();
        if (get.kind === 'stream') {
          standaloneProbed = true;
          standalone.add(get.stream.conn);
          await (await client.callTool('emit_unsolicited', { label, count: 1 })).response({ timeoutMs });
          // Up to the notification itself (a priming event may come first): its frame has an ID or not.
          for (let i = 0; i < 4; i++) {
            const r = await get.stream.receive(timeoutMs);
            if (r.kind !== 'frame' || r.frame.id || r.frame.message !== undefined) break;
          }
        }
      }
      await client.deleteSession();
    }
  } catch {
    // What was recorded before the failure still says what the candidate sent.
  } finally {
    client.close();
  }
  const onPost = firstId(framesOf(post));
  const onStandalone = firstId(framesOf(standalone));
  const postWords = onPost ? `POST response streams carry event IDs (e.g. ${onPost})` : 'no event ID on a POST response stream (initialize, a call)';
  const getWords = !standaloneProbed
    ? 'the standalone GET stream was not probed (no emit_unsolicited fixture, or no stream)'
    : onStandalone
      ? `the standalone GET stream carries event IDs (e.g. ${onStandalone})`
      : 'no event ID on the standalone GET stream (emit_unsolicited)';
  return {
    offered: onPost !== undefined || onStandalone !== undefined,
    postStreams: onPost !== undefined,
    ...(standaloneProbed ? { standaloneStream: onStandalone !== undefined } : {}),
    evidence: `${postWords}; ${getWords}`,
  };
}
