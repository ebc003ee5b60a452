/**
 * docs/spec-proposals.md: where the MCP spec is silent or ambiguous about resumption, what this
 * project proposes, each proposal followed by the model's evidence (verdicts, table rows and
 * traces computed now, the same judgements docs/claims.md prints).
 */
import { formatBounds } from '../../model/bounds.js';
import { judgedClaims, type ClaimJudgement } from '../../model/claims/index.js';
import type { FoundTrace } from '../../model/claims/claim.js';
import { expiredCursorCost } from '../../model/claims/expired-cursor.js';
import { formatTrace, replay } from '../../model/trace.js';
import { fence, generatedBanner, table } from './markdown.js';

function judgement(id: string): ClaimJudgement {
  const found = judgedClaims().find((j) => j.id === id);
  if (!found) throw new Error(`no claim ${id}`);
  return found;
}

/** A verdict with its link into docs/claims.md. */
function cite(id: string): string {
  return `[${id}](claims.md#${id}) (${judgement(id).verdict})`;
}

/** The rows of a claim's first table, whole. */
function evidenceTable(id: string, index = 0): string {
  const t = judgement(id).tables[index]!;
  return table(t.header, t.rows);
}

function trace(t: FoundTrace): string {
  return [`${t.title} (bounds \`${formatBounds(t.bounds)}\`, ${t.path.length} steps):`, '', fence('text', formatTrace(replay(t.policy, t.bounds, t.path)))].join('\n');
}

function expiredCursorSection(): string[] {
  const cost = expiredCursorCost();
  const parts = [
    '## 2. An expired cursor on a live session',
    '',
    "**The spec.** Silent on what a server answers when the session is live but the event a `Last-Event-ID` names is no longer in its event store (evicted, expired). It does say that a `404` to a request carrying an `Mcp-Session-Id` means the session is gone, and that the client then MUST start a new one.",
    '',
    '**The cost of 404 here.** A 404 for an unplaceable cursor (what the reference server answers, and what proposal 1 asks for unknown cursors) tells the client its *session* is gone when only the *cursor* is. The model shows what follows, with the reference policy and a cursor the session cannot place standing in for an expired one:',
    '',
  ];
  if (cost.abandoned) {
    const end = replay(cost.abandoned.policy, cost.abandoned.bounds, cost.abandoned.path).at(-1)!.world;
    parts.push(
      `- the client reports its pending call failed although the tool ran (executions: ${Object.entries(end.executions).map(([c, n]) => `${c} x${n}`).join(', ')}), and the session it abandons stays \`${String(end.sessions[0]!.value)}\` on the server, holding what the client waited for;`,
    );
  }
  parts.push(
    cost.rerun
      ? "- a client that re-issues the failed call in its new session runs the tool twice (trace below): the 404 turns an expired cursor into a duplicated side effect, with the server following every other rule;"
      : '- a client that re-issues the failed call does not run the tool twice in the model;',
    `- the same holds for a refused migration (${cite('000-reinitialize-cost')}), and retiring the abandoned session would destroy the only copy of the result (${cite('003-retire')}).`,
    '',
    "**Proposal.** Keep 404 for \"no such session\". For a live session whose store cannot place the cursor, the spec should name a distinct answer that says *the cursor* is unusable and the session is not (for example `409` with a JSON-RPC error body naming the cursor), so that a client can open a fresh stream, re-issue only idempotent work, and ask the application before re-running anything else. Until the spec names one, 404 is the only answer a client is told to act on, which is why the reference keeps it: a quiet 200 is worse (proposal 1). The model has no third answer yet; the evidence here is the cost of 404, not the benefit of the alternative.",
    '',
  );
  if (cost.abandoned) parts.push(trace(cost.abandoned), '');
  if (cost.rerun) parts.push(trace(cost.rerun), '');
  return parts;
}

/** The whole of docs/spec-proposals.md. */
export function specProposalsDoc(): string {
  return [
    generatedBanner('scripts/docs.ts'),
    '',
    '# Proposals for the MCP spec: resumption across transports',
    '',
    "Where the spec (2025-03-26 to 2025-11-25, streamable HTTP; 2024-11-05, HTTP+SSE) is silent or ambiguous about resumption, what this project proposes and the model's evidence, ready to paste into a spec discussion. Every verdict and table below is computed from the model when this page is generated; [claims.md](claims.md) has the full traces.",
    '',
    '## 1. A `Last-Event-ID` the server cannot place',
    '',
    "**The spec.** Silent (spec issue 1939): it says what a replay carries, not what to answer when the cursor names no event of the session's streams.",
    '',
    "**Proposal.** Answer 404, never 200 with an empty stream. A quiet 200 is indistinguishable from a quiet period: a request waiting on that stream waits for ever, and under a bridged session it is how a migration gets resumed quietly under capabilities the client never negotiated.",
    '',
    `**Evidence.** ${cite('003-quiet-stream')}: ${judgement('003-quiet-stream').finding} ${cite('003-conditions')}:`,
    '',
    evidenceTable('003-conditions'),
    '',
    ...expiredCursorSection(),
    '## 3. Resumption on the legacy transport',
    '',
    "**The spec.** 2024-11-05 has no resumption: a broken `GET /sse` stream ends the session. Seed 000's server accepted `Last-Event-ID` there anyway.",
    '',
    "**Proposal.** A server in a migration window either resumes the legacy stream by `GET /sse?sessionId=…` with `Last-Event-ID`, under the same rules as streamable HTTP (replay of that stream only, after the cursor, 404 for what it cannot place), or answers with a new session; it never resumes a legacy session at `/mcp` by accident. The reference server does the former, as an extension.",
    '',
    `**Evidence.** The loss does not need the legacy transport at all (${cite('000-scope')}); what the legacy path adds is the migration (${cite('000-conditions')}, ${cite('000-conditions-any-loss')}).`,
    '',
    '## 4. A session presented at the other transport',
    '',
    "**The spec.** Silent: each transport's session is described alone, and a server that serves both from one session store can see an `Mcp-Session-Id` issued by the legacy listener at `/mcp` (or the reverse).",
    '',
    '**Proposal.** A session is resumed only under the transport that issued it; the other answers 404 ("session not found for this transport") and the client re-initializes there. This is sufficient, not necessary: a server may accept the other transport only if it can place the cursor in the session\'s one ordered log and keeps the negotiated capabilities, and only a client whose cursor names the last event it processed is safe either way.',
    '',
    `**Evidence.** ${cite('003-rule')}, judged by consequences only (loss, stall, duplicate effect, foreign capabilities), never by the rule's own invariant:`,
    '',
    evidenceTable('003-rule'),
    '',
    '## 5. Translating a cursor across transports',
    '',
    "**The spec.** Silent. Seed 003 says never: the two transports' IDs share no order.",
    '',
    "**Proposal.** Do not translate unless the server keeps one ordered log per session (each event tagged with the listener that minted it), keeps the negotiated capabilities, and the client's cursor names what it processed; otherwise answer 404. Translation only ever helps a session that is bridged, which proposal 4 refuses by default.",
    '',
    `**Evidence.** ${cite('003-translation')}:`,
    '',
    evidenceTable('003-translation'),
    '',
    '## 6. What `Last-Event-ID` names',
    '',
    "**The spec.** It asks the client to send the ID of the last event it *received*; the SSE standard's EventSource moves it when a frame is parsed, before the application has processed it, and SSE carries no acknowledgement.",
    '',
    "**Proposal.** The spec should say a client presents the ID of the last event it *processed* (not merely parsed). With that, replay after the cursor (the spec's contract) is exact with or without dedup; without it no server policy prevents the loss, and a server cannot even detect it.",
    '',
    `**Evidence.** ${cite('000-decision-boundary')}; ${cite('000-log-rule')}: ${judgement('000-log-rule').finding}`,
    '',
    evidenceTable('000-log-rule'),
    '',
  ].join('\n');
}
