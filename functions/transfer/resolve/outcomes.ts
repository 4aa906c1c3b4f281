import { isApplicabilityNote, limitsCredit, typeConditions, type TransferCondition } from '../rule-text/conditions.js';
import type { AlternativeTarget, ConditionalAward, TransferRule, TransferTarget } from '../rule-model.js';

export interface RuleConditions {
  /** Conditions on the main award: not known to hold, it stays out of the plan. */
  rule: TransferCondition[];
  /** Conditions on one target or alternative award (they narrow which alternative may be chosen). */
  targets: Map<AlternativeTarget, TransferCondition>;
  /** Conditions of awards given only under a condition (`rule.conditionalAwards`), exemptions included. */
  conditionalAwards: TransferCondition[];
}

/** One way a rule can award credit: its main award, an award under a condition, or what part of a bundle earns. */
export interface Outcome {
  kind: 'main' | 'conditional' | 'partial';
  /** instead: replaces the main award; option: the student may take it when its condition holds. */
  mode?: 'instead' | 'option';
  targets: TransferTarget[];
  /** Credits in the receiver's unit; null when a target states none. */
  credits: number | null;
  /** All must hold for this outcome. */
  conditions: TransferCondition[];
  /** partial: how many of the bundle's courses it needs. */
  count?: number;
  /** The published wording that gives it. */
  text: string;
}

const AWARDS_CREDIT = /\(\d+(?:\.\d+)?\)/;
const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').replace(/[\s.,;"]+$/, '').trim();
const total = (targets: AlternativeTarget[]) => (targets.some((t) => t.credits === null) ? null : targets.reduce((s, t) => s + (t.credits ?? 0), 0));

const memo = new WeakMap<TransferRule, { conditions: RuleConditions; outcomes: Outcome[]; choices?: TargetChoice[][] }>();

function splitSentences(text: string): string[] {
  // A "." before "(" ends no sentence ("admission to B.Ed. (Elem) when taken with …").
  return text.split(/(?<=[.;])\s+(?=[A-Z*])|;\s*/).map((s) => s.trim()).filter(Boolean);
}

function dedupe(conditions: TransferCondition[]): TransferCondition[] {
  const seen = new Set<string>();
  return conditions.filter((c) => {
    const key = `${c.type}|${c.negated ? '!' : ''}|${c.text.replace(/\.$/, '')}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/** Conditions of prose that is none of the typed kinds: a limit the engine cannot read is a condition never taken as holding. */
function conditionsOfSentence(sentence: string, appliesTo: string): TransferCondition[] {
  if (isApplicabilityNote(sentence)) return [];
  const typed = typeConditions(sentence, appliesTo);
  if (typed.length) return typed;
  return limitsCredit(sentence) ? [{ type: 'other', text: sentence.trim().replace(/\s+/g, ' '), appliesTo }] : [];
}

/** Sentences the parser already typed as constraints, awards under a condition or partial awards: not conditions of the main award. */
function structured(rule: TransferRule): string[] {
  return [
    ...(rule.constraints ?? []).map((c) => c.text),
    ...(rule.conditionalAwards ?? []).flatMap((a) => [a.condition, ...a.targets.map((t) => t.text)]),
    ...(rule.partialAwards ?? []).map((p) => p.text),
  ].map(normalise);
}

function typeRule(rule: TransferRule): { conditions: RuleConditions; outcomes: Outcome[]; choices?: TargetChoice[][] } {
  const found: RuleConditions = { rule: [], targets: new Map(), conditionalAwards: [] };
  const known = structured(rule);
  const only = rule.targets.length === 1 ? rule.targets[0]! : undefined;
  const lastAlternative = only?.alternatives?.at(-1)?.at(-1);
  // "X (3), if A; or Y (3) if B": an "if" right after a target that has alternatives qualifies that target, not the rule.
  const follows = (target: AlternativeTarget | undefined, sentence: string) => target && /^if\b/i.test(sentence) && rule.rawDetail.includes(`${target.text}, ${sentence.split(/[.;]/)[0]}`);
  for (const sentence of splitSentences(rule.conditionText ?? '')) {
    const key = normalise(sentence);
    if (known.some((text) => text && (key.includes(text) || text.includes(key)))) continue;
    const typed = conditionsOfSentence(sentence, 'rule');
    if (!typed.length) continue;
    // Prose that awards credit the parser could not read: surfaced, never blocking the main award.
    if (AWARDS_CREDIT.test(sentence)) {
      found.conditionalAwards.push(...typed.map((c) => ({ ...c, appliesTo: 'conditional award' })));
      continue;
    }
    if (follows(lastAlternative, sentence)) found.targets.set(lastAlternative!, { ...typed[0]!, appliesTo: lastAlternative!.text });
    else if (only?.alternatives && follows(only, sentence)) found.targets.set(only, { ...typed[0]!, appliesTo: only.text });
    else found.rule.push(...typed);
  }
  for (const target of rule.targets) {
    const onTarget = target.note && !found.targets.has(target) ? conditionsOfSentence(target.note, target.text).filter((c) => c.type !== 'other' || /^(?:if|only|when|unless)\b/i.test(target.note!)) : [];
    // An "if" note on an award stands for the whole rule when the rule awards nothing else.
    if (onTarget.length && rule.targets.length === 1 && !target.alternatives) found.rule.push(...onTarget);
    else if (onTarget.length) found.targets.set(target, onTarget[0]!);
    for (const set of target.alternatives ?? []) {
      for (const alternative of set) {
        const typed = alternative.note ? conditionsOfSentence(alternative.note, alternative.text) : [];
        if (typed.length) found.targets.set(alternative, typed[0]!);
      }
    }
  }
  found.rule = dedupe(found.rule);
  const outcomes = outcomesOf(rule, found);
  return { conditions: found, outcomes };
}

/** Which family a condition belongs to: a rule-level condition of the family an alternative is chosen by belongs to the main award alone. */
const family = (c: TransferCondition) => (c.type === 'taken-alone' || c.type === 'with-course' ? 'companion' : c.type === 'not-for-program' ? 'program' : c.type);

function awardConditions(award: ConditionalAward): TransferCondition[] {
  const typed = typeConditions(award.condition, award.targets.map((t) => t.text).join(' & '));
  return typed.length ? typed : [{ type: 'other', text: award.condition.trim(), appliesTo: award.targets.map((t) => t.text).join(' & ') }];
}

function outcomesOf(rule: TransferRule, conditions: RuleConditions): Outcome[] {
  const awards = (rule.conditionalAwards ?? []).map((award) => ({ award, conditions: awardConditions(award) }));
  for (const { award, conditions: typed } of awards) conditions.conditionalAwards.push(...typed.map((c) => ({ ...c, appliesTo: award.mode === 'exemption' ? `exemption ${award.targets.map((t) => t.code).join(', ')}` : c.appliesTo })));
  const instead = awards.filter(({ award }) => award.mode === 'instead');
  const distinguishing = new Set(instead.flatMap(({ conditions: typed }) => typed.map(family)));
  const companions = instead.flatMap(({ conditions: typed }) => typed.filter((c) => c.type === 'with-course').flatMap((c) => c.courses ?? []));
  // "X, if taken alone; Y with one of A, B": alone means without A and B.
  const ruleLevel = conditions.rule.map((c) => (c.type === 'taken-alone' && !c.courses && companions.length ? { ...c, courses: companions } : c));
  const shared = ruleLevel.filter((c) => !distinguishing.has(family(c)));
  const main: Outcome = {
    kind: 'main',
    targets: rule.targets,
    credits: total(rule.targets),
    conditions: dedupe([...ruleLevel, ...instead.flatMap(({ conditions: typed }) => typed.map((c) => ({ ...c, negated: true })))]),
    text: rule.targets.map((t) => t.text).join(' & '),
  };
  const others: Outcome[] = awards
    .filter(({ award }) => award.mode !== 'exemption')
    .map(({ award, conditions: typed }) => ({
      kind: 'conditional',
      mode: award.mode as 'instead' | 'option',
      targets: award.targets,
      credits: total(award.targets),
      conditions: dedupe([...shared, ...typed]),
      text: `${award.targets.map((t) => t.text).join(' & ')} (${award.condition.trim()})`,
    }));
  const partial: Outcome[] = (rule.partialAwards ?? []).map((p) => ({ kind: 'partial', targets: p.targets, credits: total(p.targets), conditions: ruleLevel, count: p.count, text: p.text }));
  return [main, ...others, ...partial];
}

/**
 * The typed conditions of a rule: on the whole rule (condition prose, or an "if" note on its only
 * award), or on one alternative award ("… or SFU ASC 2XX (3), if student already has credit for SFU
 * ASC 202" qualifies the alternative, not the rule), or on an award given only under a condition.
 */
export function conditionsOf(rule: TransferRule): RuleConditions {
  return typed(rule).conditions;
}

/** Every way the rule can award credit, each with the conditions it needs. */
export function ruleOutcomes(rule: TransferRule): Outcome[] {
  return typed(rule).outcomes;
}

function typed(rule: TransferRule) {
  let found = memo.get(rule);
  if (!found) memo.set(rule, (found = typeRule(rule)));
  return found;
}

export interface TargetChoice {
  /** The main target, or one alternative set offered instead of it. */
  set: AlternativeTarget[];
  /** What choosing it needs, when the wording says ("… or SFU ASC 2XX (3), if student already has credit for SFU ASC 202"). */
  condition?: TransferCondition;
}

/** Per main target, the ways it can be taken: itself (without its alternatives) or one of its alternative sets, each with its condition. */
export function targetChoices(rule: TransferRule): TargetChoice[][] {
  const found = typed(rule);
  found.choices ??= choicesOf(rule);
  return found.choices;
}

function choicesOf(rule: TransferRule): TargetChoice[][] {
  const onTargets = conditionsOf(rule).targets;
  const conditionOf = (set: AlternativeTarget[]) => set.map((t) => onTargets.get(t)).find(Boolean);
  return rule.targets.map((target) => {
    const { alternatives, ...own } = target;
    return [{ set: [own], condition: onTargets.get(target) }, ...(alternatives ?? []).map((set) => ({ set, condition: conditionOf(set) }))].map((c) => (c.condition ? c : { set: c.set }));
  });
}
