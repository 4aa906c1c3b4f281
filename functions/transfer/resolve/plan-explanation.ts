import type { Match, Resolution } from './resolve.js';

const describe = (match: Match) => `${match.rule.sourceCourses.map((c) => c.code).join(' + ')} → ${match.rule.targets.map((t) => t.text).join(' & ') || match.rule.rawDetail}`;

/** Why each rule is in the plan or not, in plain language for the agent to relay (seed 001's reasoning). */
export function explainPlan(resolution: Resolution): string {
  const lines: string[] = [];
  const planned = new Map(resolution.plan.rules.map((r) => [r.ruleId, r]));
  const consumedBy = new Map(resolution.plan.rules.flatMap((r) => r.consumes.map((code) => [code, r.ruleId] as const)));
  const awardedBy = new Map(resolution.plan.overlaps.filter((o) => o.awardedBy).map((o) => [o.target, o.awardedBy!]));
  const byId = new Map(resolution.exact.map((m) => [m.rule.ruleId, m]));
  const name = (ruleId: string) => (byId.get(ruleId) ? `"${describe(byId.get(ruleId)!)}"` : ruleId);
  const limiting = resolution.plan.constraints.filter((c) => c.limitedPlan);
  lines.push(
    `The plan transfers ${resolution.plan.totalCredits} credits${resolution.plan.optimal ? ', the most possible' : ' (the search stopped early; a better plan may exist)'} with each course used once, each specific course awarded once${limiting.length ? ' and every limit the wording sets respected' : ''}.`,
  );
  for (const constraint of limiting) lines.push(`The wording limits the plan: "${constraint.text}"`);
  for (const match of resolution.exact) {
    const chosen = planned.get(match.rule.ruleId);
    if (chosen) {
      const taken = chosen.awards ? ` (${chosen.basis === 'partial' ? 'what part of the bundle earns' : chosen.basis === 'situational' ? 'whichever of its awards applies' : chosen.basis === 'conditional' ? 'the award its condition gives' : 'an alternative it offers'}: ${chosen.awards.join(' & ')})` : '';
      lines.push(`Chose ${describe(match)}${taken} for ${chosen.consumes.join(' + ')}: ${chosen.credits} credits.`);
      continue;
    }
    const takenCourse = match.usedCourses.find((code) => consumedBy.has(code));
    const takenTarget = match.rule.targets.find((t) => t.code && awardedBy.get(`${t.institution}:${t.code}`) && awardedBy.get(`${t.institution}:${t.code}`) !== match.rule.ruleId);
    const limit = limiting.find((c) => (c.side === 'sending' ? c.courses.some((code) => match.usedCourses.includes(code)) : c.courses.some((code) => match.rule.targets.some((t) => t.code === code))) || c.ruleIds.includes(match.rule.ruleId));
    const reason = match.warnings.length
      ? match.warnings[0]
      : !match.targetCredits
        ? 'it awards no credit'
        : takenTarget
          ? `${takenTarget.code} is already awarded by ${name(awardedBy.get(`${takenTarget.institution}:${takenTarget.code}`)!)}`
          : limit
            ? `the wording allows no more: "${limit.text}"`
            : takenCourse
              ? `${takenCourse} counts towards ${name(consumedBy.get(takenCourse)!)}, which transfers more (or more specific) credit`
              : 'another combination transfers more credit';
    lines.push(`Left out ${describe(match)}: ${reason}.`);
  }
  for (const match of resolution.conditional) {
    const open = [...new Set(match.conditions.filter((c) => c.status !== 'holds').map((c) => `${c.wouldHoldIf}${c.status === 'fails' ? ' (it does not, from what was said)' : ''}`))];
    lines.push(`Not counted: ${describe(match)}, until ${open.join('; and ')}.`);
  }
  if (resolution.noCredit.length) lines.push(`No credit: ${resolution.noCredit.map(describe).join('; ')}.`);
  if (resolution.individualAssessment.length) lines.push(`Assessed individually by the receiver: ${resolution.individualAssessment.map(describe).join('; ')}.`);
  return lines.join('\n');
}
