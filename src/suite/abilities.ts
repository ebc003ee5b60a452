/**
 * Finds out what a candidate can be asked: which transports answer `initialize`, and which
 * fixture tools `tools/list` shows. A candidate that answers neither transport cannot be checked.
 */
import type { Transport } from '../../model/transport.js';
import { isObject } from '../../properties/messages.js';
import { CheckClient } from '../client/index.js';
import type { CandidateAbilities, CandidateTarget } from './types.js';

/** The candidate could not be checked at all (exit status 2). */
export class CandidateUnusable extends Error {
  override name = 'CandidateUnusable';
}

async function tryTransport(target: CandidateTarget, transport: Transport, timeoutMs: number): Promise<{ ok: true; tools: string[] } | { ok: false; reason: string }> {
  const client = new CheckClient({ baseUrl: target.url, paths: target.paths ?? {}, timeoutMs });
  try {
    const init = await client.initialize({ transport });
    if (!init.ok) return { ok: false, reason: init.reason };
    const list = await client.listTools();
    const outcome = await list.response({ timeoutMs });
    if (outcome.kind !== 'response') return { ok: true, tools: [] };
    const result = outcome.message.result;
    const tools = isObject(result) && Array.isArray(result.tools) ? result.tools.flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : [])) : [];
    if (transport === 'streamable') await client.deleteSession();
    return { ok: true, tools };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    client.close();
  }
}

/** Probes both transports. @throws CandidateUnusable when neither answers `initialize`. */
export async function probeAbilities(target: CandidateTarget, timeoutMs: number): Promise<CandidateAbilities> {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new CandidateUnusable(`not a URL: ${JSON.stringify(target.url)}`);
  }
  if (url.protocol !== 'http:') throw new CandidateUnusable(`only http:// candidates can be checked, got ${url.protocol}//`);
  const [streamable, sse] = await Promise.all([tryTransport(target, 'streamable', timeoutMs), tryTransport(target, 'sse', timeoutMs)]);
  const notes: string[] = [];
  const transports: Transport[] = [];
  if (streamable.ok) transports.push('streamable');
  else notes.push(`streamable HTTP: ${streamable.reason}`);
  if (sse.ok) transports.push('sse');
  else notes.push(`legacy HTTP+SSE: ${sse.reason}`);
  if (transports.length === 0) throw new CandidateUnusable(`${target.url} answers initialize under neither transport (${notes.join('; ')})`);
  const tools = new Set([...(streamable.ok ? streamable.tools : []), ...(sse.ok ? sse.tools : [])]);
  const fixtures = { emit: tools.has('emit'), emitUnsolicited: tools.has('emit_unsolicited'), sessionInfo: tools.has('session_info') };
  if (!fixtures.emit) notes.push('no emit fixture tool: calls are pings, and properties that need notifications or effects are skipped');
  return { transports, fixtures, notes };
}

