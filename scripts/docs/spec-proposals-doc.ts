/**
 * docs/spec-proposals.md: where the MCP spec is silent or ambiguous about resumption, what this
 * project proposes, each proposal followed by the model's evidence (verdicts, table rows and
 * traces computed now, the same judgements docs/claims.md prints).
 */
import { formatBounds } from '../../model/bounds.js';
import { judgedClaims, type ClaimJudgement } from '../../model/claims/index.js';
import type { FoundTrace } from '../../model/claims/claim.js';
import { expiredCursorCost } from '../../model/claims/expired-cursor.js';
import { judgementRestsOnLegacyResume, legacyResumeLabel, restsOnLegacyResume } from '../../model/claims/legacy-resume.js';
import { getStreamOr405 } from '../../properties/spec-sentences.js';
import { formatTrace, replay } from '../../model/trace.js';
import { fence, generatedBanner, table } from './markdown.js';

function judgement(id: string): ClaimJudgement {
  const found = judgedClaims().find((j) => j.id === id);
  if (!found) throw new Error(`no claim ${id}`);
  return found;
}

/** Where the spec discussion lives. */
export const specIssue1939 = 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1939';
export const sep1699 = 'https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1699';

/** A verdict with its link into docs/claims.md, labelled where its evidence rests on the legacy-resume extension. */
function cite(id: string): string {
  const j = judgement(id);
  return `[${id}](claims.md#${id}) (${j.verdict}${judgementRestsOnLegacyResume(j) ? '; its traces rest on the legacy-resume extension' : ''})`;
}

/** The rows of a claim's first table, whole. */
function evidenceTable(id: string, index = 0): string {
  const t = judgement(id).tables[index]!;
  return table(t.header, t.rows);
}

function trace(t: FoundTrace): string {
  const label = restsOnLegacyResume(t) ? `; ${legacyResumeLabel}` : '';
  return [
    `${t.title} (bounds \`${formatBounds(t.bounds)}\`, ${t.path.length} steps${label}):`,
    '',
    fence('text', formatTrace(replay(t.policy, t.bounds, t.path))),
  ].join('\n');
}

function expiredCursorSection(): string[] {
  const cost = expiredCursorCost();
  const parts = [
    '## 2. An expired cursor on a live session',
    '',
    '**The spec.** Silent on what a server answers when the session is live but the event a `Last-Event-ID` names is no longer in its event store (evicted, expired). It does say that a `404` to a request carrying an `Mcp-Session-Id` means the session is gone, and that the client then MUST start a new one.',
    '',
    "**The cost of 404 here.** A 404 for an unplaceable cursor (what the reference server answers, and what proposal 1 asks for unknown cursors) tells the client its *session* is gone when only the *cursor* is. The model shows what follows at `/mcp`, with the reference server keeping a bounded event log (`logRetention: bounded`): it trims the event the client's own cursor names, and the resume that presents it is answered 404:",
    '',
  ];
  if (cost.abandoned) {
    const end = replay(cost.abandoned.policy, cost.abandoned.bounds, cost.abandoned.path).at(-1)!.world;
    parts.push(
      `- the client reports its pending call failed although the tool ran (executions: ${Object.entries(end.executions)
        .map(([c, n]) => `${c} x${n}`)
        .join(', ')}), and the session it abandons stays \`${String(end.sessions[0]!.value)}\` on the server, holding what the client waited for;`,
    );
  }
  parts.push(
    cost.rerun
      ? '- a client that re-issues the failed call in its new session runs the tool twice (trace below): the 404 turns an expired cursor into a duplicated side effect, with the server following every other rule;'
      : '- a client that re-issues the failed call does not run the tool twice in the model;',
    `- the same holds for a refused migration (${cite('000-reinitialize-cost')}), and retiring the abandoned session would destroy the only copy of the result (${cite('003-retire')}).`,
    '',
    '**Proposal.** Keep 404 for "no such session". For a live session whose store cannot place the cursor, the spec should name a distinct answer that says *the cursor* is unusable and the session is not (for example `409` with a JSON-RPC error body naming the cursor), so that a client can open a fresh stream, re-issue only idempotent work, and ask the application before re-running anything else. Until the spec names one, 404 is the only answer a client is told to act on, which is why the reference keeps it: a quiet 200 is worse (proposal 1). The model has no third answer yet; the evidence here is the cost of 404, not the benefit of the alternative.',
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
    `These proposals target the revisions deployed today that have sessions and \`Last-Event-ID\` resumption: 2025-03-26 to 2025-11-25 (streamable HTTP; 2024-11-05's HTTP+SSE where a server still serves it beside them). The 2026-07-28 revision removed sessions and \`Last-Event-ID\` resumption, so they do not apply to it. Where those revisions are silent or ambiguous about resumption, this page gives what this project proposes and the model's evidence, ready to paste into a spec discussion: [spec issue 1939](${specIssue1939}) (what to answer a \`Last-Event-ID\` the server cannot resume from) and [SEP-1699](${sep1699}) (SSE polling via server-side disconnect, part of 2025-11-25). Every verdict and table below is computed from the model when this page is generated; [claims.md](claims.md) has the full traces. Evidence that rests on this project's legacy-resume extension (\`GET /sse?sessionId=…\` with \`Last-Event-ID\`, which 2024-11-05 does not define) is labelled where it appears.`,
    '',
    '## 1. A `Last-Event-ID` the server cannot place',
    '',
    `**The spec.** It says what a replay carries, not what to answer when the cursor names no event of the session's streams ([spec issue 1939](${specIssue1939})). It is not wholly silent: a resume is an HTTP GET to the MCP endpoint, and "${getStreamOr405[0]!.text}" (${getStreamOr405[0]!.section}, every streamable revision).`,
    '',
    '**Proposal.** Answer 404, never 200 with an empty stream. A quiet 200 is indistinguishable from a quiet period: a request waiting on that stream waits for ever, and under a bridged session it is how a migration gets resumed quietly under capabilities the client never negotiated. Read literally, the MUST above allows only a stream or 405 to that GET, so a 404 (or 400) on a live session is in tension with it, and 405 says the endpoint offers no SSE stream at all. The spec should resolve the tension by naming the refusal of an unresumable cursor as an allowed answer to the resume GET; until it does, this project takes 404, the one refusal a client is told to act on, and its checker fails a 405 to an unknown cursor, from a server that offers resumption, at POLICY.',
    '',
    `**Evidence.** ${cite('003-quiet-stream')}: ${judgement('003-quiet-stream').finding} ${cite('003-conditions')}:`,
    '',
    evidenceTable('003-conditions'),
    '',
    ...expiredCursorSection(),
    '## 3. Resumption on the legacy transport',
    '',
    "**The spec.** 2024-11-05 defines no resumption for HTTP+SSE (no event IDs, no `Last-Event-ID`) and says nothing of what a broken `GET /sse` stream means for the session. Seed 000's server accepted `Last-Event-ID` there anyway.",
    '',
    "**Proposal.** A server in a migration window either resumes the legacy stream by `GET /sse?sessionId=…` with `Last-Event-ID`, under the same rules as streamable HTTP (replay of that stream only, after the cursor, 404 for what it cannot place), or answers with a new session; it never resumes a legacy session at `/mcp` by accident. The reference server does the former, as an extension: this project's legacy-resume extension, which every label on this page and in claims.md refers to.",
    '',
    `**Evidence.** The loss does not need the legacy transport at all (${cite('000-scope')}); what the legacy path adds is the migration (${cite('000-conditions')}).`,
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
    "**Proposal.** The spec should say a client presents the ID of the last event it *processed* (not merely parsed). With that, replay after the cursor (the spec's contract) is exact with or without dedup; without it no server policy prevents the loss, and a server cannot even detect it. A browser `EventSource` client cannot meet this: the browser, not the application, keeps the last event ID, sets it when it dispatches an event and sends it on its own reconnection, whether or not the application has processed the event. Such clients stay on-receive cursors; for them the server-side mitigation is replay from the cursor with client dedup, exact only while at most one frame is received and unprocessed at a drop (the table of 000-decision-boundary). The official SDK client meets it already: its token moves in the same step that hands the message to the application (`test/client/sdk-cursor.test.ts`).",
    '',
    `**Evidence.** ${cite('000-decision-boundary')}; ${cite('000-log-rule')}: ${judgement('000-log-rule').finding}`,
    '',
    evidenceTable('000-log-rule'),
    '',
  ].join('\n');
}
