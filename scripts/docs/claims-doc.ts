/**
 * docs/claims.md: every claim of the two seeds, in this project's words, with the model's
 * verdict and the evidence (tables, traces, and the test that pins them).
 */
import { formatBounds } from '../../model/bounds.js';
import { gradingRule, judgedClaims, tally, type ClaimJudgement } from '../../model/claims/index.js';
import { judgementRestsOnLegacyResume, legacyResumeLabel, restsOnLegacyResume } from '../../model/claims/legacy-resume.js';
import { describePolicy, policies, type Policy } from '../../model/policy.js';
import { formatTrace, replay } from '../../model/trace.js';
import { fence, generatedBanner, table } from './markdown.js';

function policyName(policy: Policy): string {
  const found = Object.entries(policies).find(([, p]) => describePolicy(p) === describePolicy(policy));
  return found ? `\`${found[0]}\`` : `\`${describePolicy(policy)}\``;
}

function section(j: ClaimJudgement): string {
  const parts = [
    // A verdict-free anchor, so links survive a verdict changing.
    `<a id="${j.id}"></a>`,
    '',
    `### ${j.id}: ${j.verdict}`,
    '',
    `**Claim.** ${j.claim}`,
    '',
    `**What the model finds.** ${j.finding}`,
    '',
  ];
  if (judgementRestsOnLegacyResume(j)) parts.push(`**Legacy resume.** Evidence marked below ${legacyResumeLabel}.`, '');
  for (const t of j.tables) parts.push(table(t.header, t.rows), '');
  for (const t of j.traces) {
    const label = restsOnLegacyResume(t) ? `; ${legacyResumeLabel}` : '';
    parts.push(`**${t.title}** (policy ${policyName(t.policy)}, bounds \`${formatBounds(t.bounds)}\`, ${t.path.length} steps${label}):`, '');
    parts.push(fence('text', formatTrace(replay(t.policy, t.bounds, t.path))), '');
  }
  parts.push(`Evidence: \`${j.test}\` pins this judgement.`, '');
  return parts.join('\n');
}

/** The tally as the docs print it: `5 confirmed, 8 refined, 4 refuted`. */
export function summaryLine(counts: Record<'confirmed' | 'refined' | 'refuted', number>): string {
  return `${counts.confirmed} confirmed, ${counts.refined} refined, ${counts.refuted} refuted`;
}

/** The whole of docs/claims.md. */
export function claimsDoc(): string {
  const judged = judgedClaims();
  const own = judged.filter((j) => !j.variant);
  const counts = tally(judged);
  return [
    generatedBanner('scripts/docs.ts'),
    '',
    "# The seeds' claims, judged by the model",
    '',
    "Each claim of the two incident write-ups (`seeds/000`: one tool result lost after a migration; `seeds/003`: a migration resumed quietly under capabilities the client never negotiated), restated, with the model's verdict. Verdicts are computed by exploring the model, not written by hand, and every claim is graded by the same rule (`grade` in `model/claims/claim.ts`):",
    '',
    `- **refuted**: ${gradingRule.refuted}`,
    `- **refined**: ${gradingRule.refined}`,
    `- **confirmed**: ${gradingRule.confirmed}`,
    '',
    "Seed 000's own setting is its client (cursor on receive, no dedup, retry on timeout), unclean drops and one frame undrained; seed 003's is its server's knobs. Where a claim has two readings (000-conditions), each gets its own verdict.",
    '',
    `Summary: ${summaryLine(counts)}, over the seeds' own ${own.length} claims (this project's variants, listed last, are not counted).`,
    '',
    table(
      ['claim', 'seed', 'verdict'],
      judged.map((j) => [`[${j.id}](#${j.id})`, j.variant ? `${j.seed} (variant)` : j.seed, j.verdict]),
    ),
    '',
    '## Seed 000',
    '',
    ...own.filter((j) => j.seed === '000').map(section),
    '## Seed 003',
    '',
    ...own.filter((j) => j.seed === '003').map(section),
    "## This project's variants",
    '',
    "Claims this project makes beside a seed's, judged by the same rule; not part of the seeds' tally.",
    '',
    ...judged.filter((j) => j.variant).map(section),
  ].join('\n');
}
