import { createHash } from 'node:crypto';
import type { AlternativeTarget, ParsedRule, TransferTarget } from './rule-model.js';

/** Prose compared as content: case, spacing, spacing before "(" and end punctuation do not matter. */
export function normalisedText(text: string | null | undefined): string {
  return (text ?? '')
    .toLowerCase()
    .replace(/([a-z0-9])\(/g, '$1 (')
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;"]+$/, '')
    .trim();
}

function targetKey(t: AlternativeTarget, withLabels: boolean): string {
  const what = `${t.kind}:${t.institution ?? ''}:${t.code ?? `${t.subject ?? ''} ${t.pattern ?? ''}`}:${t.credits ?? ''}`;
  return withLabels ? `${what}:${[...(t.designations ?? [])].sort().join('/')}:${normalisedText(t.note)}` : what;
}

/** What a set of targets awards, independent of how the published text spells it. */
export function targetSignature(targets: TransferTarget[], withLabels = false): string {
  return targets
    .map((t) => [targetKey(t, withLabels), ...(t.alternatives ?? []).map((set) => set.map((a) => targetKey(a, withLabels)).join('&'))].join('|'))
    .sort()
    .join(';');
}

/**
 * A rule's id from its normalised content and the sending credits: the same agreement written with
 * other spacing is one rule, and a 4-credit and a 3-credit version of a course are two.
 */
export function ruleIdOf(args: { sender: string; receiver: string; start: string; parsed: ParsedRule }): string {
  const { parsed } = args;
  const content = [
    args.sender,
    args.receiver,
    parsed.sourceCourses.map((c) => `${c.institution}:${c.code}:${c.credits ?? ''}`).sort(),
    parsed.sourceChoice ? `${parsed.sourceChoice.count} of ${[...parsed.sourceChoice.from].sort().join(',')}` : '',
    parsed.kind,
    targetSignature(parsed.targets, true),
    parsed.alternativeAwards.map((set) => set.map((t) => targetKey(t, true)).join('&')).sort(),
    [...parsed.exemptions].sort(),
    [...parsed.preclusions].sort(),
    normalisedText(parsed.conditionText),
    parsed.unparsedFragments.map(normalisedText),
    args.start,
  ];
  return `bctg-${createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 24)}`;
}
