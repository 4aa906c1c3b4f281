import { Cursor, type ParseContext } from './cursor.js';
import { Grammar } from './grammar.js';
import { allOf, anyOf, applyGrade, cloneNode, courseNodes, markConcurrent, rewrite } from './nodes.js';
import { spanText, type Token } from './tokenizer.js';
import type { RequirementNode } from './tree.js';

/**
 * Sentence layer. Catalog texts mix requirements with recommendations, administrative notes and
 * sentences that amend earlier ones ("MATH 154 … may be substituted for MATH 151", "MATH 260 may
 * be taken concurrently", "Permission of the instructor is also acceptable"). Each sentence is
 * routed by what it says, then requirement text goes through the grammar.
 */

const RECOMMENDED = /\brecommend|\bencouraged\b|\badvised\b|\bshould (?:take|enrol)|\bexpected to\b|\bmay wish\b/i;
const CONCURRENCY = /\b(?:may|can) be taken (?:concurrently|as (?:a )?co-?requisite)|\bmay be taken$/i;
const SUBSTITUTION = /\bmay be substituted for\b|\bmay substitute\b.*\bfor\b/i;
const ALTERNATIVE = /^(?:or|alternatively)\b|^an alternative to the above prerequisite is\b|\bis also acceptable$/i;
const PERMISSION_ALTERNATIVE = /\bmay (?:apply|enrol{1,2})\b.*\bpermission\b|\bmay enrol{1,2} with permission\b/i;
const STUDENT_EXCEPTION = /^students (?:who|with|in|satisfying|taking|completing)\b/i;
const NOTES = [
  /valid for only|only valid for/i,
  /must be met by the first day/i,
  /^offered\b/i,
  /no previous training/i,
  /\bnormally taken\b/i,
  /for further credit|not open to students|may not take|not recommended/i,
  /cannot be counted|automatically enrolled|must be taken in the term|before enrolling in/i,
  /required course for all|are required to take|no course substitutions/i,
  /prerequisites? (?:are |is )?waived|waived for students/i,
  /there may be additional prerequisites|for additional possible prerequisites/i,
  /students seeking permission|must contact|consult section notes|intended for students/i,
  /=/,
  /is competitive|proposal must be|proficiency test/i,
  /may not be taken concurrently|can enrol concurrently|may be waived|please consult|vary by topic|in advance\b|during their final term|may only register|intended to be|may not be counted/i,
];

/** Parses requirement tokens with the grammar; whatever the grammar cannot reach is kept as unparsed. */
function parseClause(tokens: Token[], source: string, ctx: ParseContext): RequirementNode {
  if (!tokens.length) return allOf([]);
  const cursor = new Cursor(tokens, source, ctx);
  const grammar = new Grammar(cursor);
  const parts: RequirementNode[] = [];
  while (!cursor.done()) {
    const before = cursor.pos;
    parts.push(grammar.segments({}));
    if (cursor.done()) break;
    const rest = tokens.slice(cursor.pos);
    if (cursor.pos === before || rest.some((token) => token.kind !== 'punct')) {
      parts.push({ type: 'unparsed', text: spanText(source, rest) });
      break;
    }
    cursor.pos += 1;
  }
  const node = allOf(parts);
  if (ctx.concurrent.length) markConcurrent(node, new Set(ctx.concurrent.splice(0)));
  return node;
}

/** Index of the first token with one of these values, or -1. */
function indexOfValue(tokens: Token[], ...values: string[]): number {
  return tokens.findIndex((token) => values.includes(token.value));
}

function codesIn(tokens: Token[], source: string, ctx: ParseContext): string[] {
  const cursor = new Cursor(tokens, source, ctx);
  const codes: string[] = [];
  while (!cursor.done()) {
    const code = cursor.takeCourse();
    if (code) codes.push(code);
    else cursor.next();
  }
  return codes;
}

/** Adds one sentence to the requirement parts gathered so far; returns the new parts. */
export function handleSentence(raw: Token[], source: string, ctx: ParseContext, parts: RequirementNode[]): RequirementNode[] {
  let tokens = raw;
  if (tokens[0]?.value === '(' && tokens[tokens.length - 1]?.value === ')') tokens = tokens.slice(1, -1);
  // A leading connector continues the previous sentence ("BIOL 200. And third-year standing.").
  while (tokens.length > 1 && ['and', 'also', ','].includes(tokens[0]!.value)) tokens = tokens.slice(1);
  const aside = { recommended: [] as string[], notes: [] as string[] };
  const updated = routeSentence(peelTrailingAsides(tokens, source, aside), source, ctx, parts);
  ctx.recommended.push(...aside.recommended);
  ctx.notes.push(...aside.notes);
  return updated;
}

function routeSentence(tokens: Token[], source: string, ctx: ParseContext, parts: RequirementNode[]): RequirementNode[] {
  const text = spanText(source, tokens);
  if (!text) return parts;
  // Asides in parentheses ("(MATH 1252 may be taken concurrently)") must not decide the sentence's kind.
  const outer = text.replace(/\([^()]*\)/g, '').replace(/\s+/g, ' ').trim();

  if (tokens[0]?.value === 'none') {
    const rest = spanText(source, tokens.slice(1)).replace(/^[\s;,.:]*(however,?|but)?\s*/i, '');
    if (rest) (RECOMMENDED.test(rest) ? ctx.recommended : ctx.notes).push(rest);
    return parts;
  }
  const blanket = /^all (?:prerequisite )?courses (?:require|must have) a minimum grade of ([A-D][+-]?)$/i.exec(text);
  if (blanket) {
    parts.forEach((part) => applyGrade(part, blanket[1]!));
    return parts;
  }
  const coreq = /^(?:or\s+)?co-?requisites?\s*:\s*/i.exec(text);
  if (coreq) {
    const body = tokens.slice(indexOfValue(tokens, ':') + 1);
    if (CONCURRENCY.test(spanText(source, body))) return concurrency(body, source, ctx, parts);
    const node = parseClause(body, source, ctx);
    markConcurrent(node);
    return [...parts, node];
  }
  if (isRecommendation(outer)) {
    ctx.recommended.push(text.replace(/^(strongly )?recommended( prerequisites?)?\s*:\s*/i, ''));
    return parts;
  }
  if (isNote(outer)) {
    ctx.notes.push(text);
    return parts;
  }
  if (CONCURRENCY.test(outer) && !STUDENT_EXCEPTION.test(text)) return concurrency(tokens, source, ctx, parts);
  if (SUBSTITUTION.test(outer)) return substitution(tokens, text, source, ctx, parts);
  if (PERMISSION_ALTERNATIVE.test(outer)) {
    return [anyOf([allOf(parts), { type: 'condition', text, category: 'permission' }])];
  }
  if (ALTERNATIVE.test(outer)) {
    let body = tokens;
    if (/^an alternative/i.test(text)) body = body.slice(indexOfValue(body, 'is') + 1);
    else if (/^(or|alternatively)\b/i.test(text)) body = body.slice(body[1]?.value === ',' ? 2 : 1);
    const acceptable = body.findIndex((token, i) => token.value === 'is' && body[i + 2]?.value === 'acceptable');
    if (acceptable > 0) body = body.slice(0, acceptable);
    return [anyOf([allOf(parts), parseClause(body, source, ctx)])];
  }
  // "Students with … can complete ECON 305 concurrently …" opens another route; "Students using
  // CHEM 335 must have …" adds a condition. Neither can be typed, but the difference matters.
  if (STUDENT_EXCEPTION.test(text)) {
    const unparsed: RequirementNode = { type: 'unparsed', text };
    return /\b(can|may)\b/i.test(text) ? [anyOf([allOf(parts), unparsed])] : [...parts, unparsed];
  }
  return [...parts, parseClause(tokens, source, ctx)];
}

function isNote(text: string): boolean {
  return NOTES.some((pattern) => pattern.test(text)) && !(/\bin advance\b/i.test(text) && /permission/i.test(text));
}

function isRecommendation(text: string): boolean {
  return RECOMMENDED.test(text) && !/not recommended/i.test(text);
}

/**
 * "MATH 336 and permission of the co-op co-ordinator; students must apply at least one term in
 * advance": trailing ";" clauses that are notes or advice leave the sentence, the rest is parsed.
 */
function peelTrailingAsides(tokens: Token[], source: string, into: { recommended: string[]; notes: string[] }): Token[] {
  let depth = 0;
  const cuts: number[] = [];
  tokens.forEach((token, i) => {
    if (token.value === '(') depth += 1;
    if (token.value === ')') depth -= 1;
    if (token.value === ';' && depth === 0) cuts.push(i);
  });
  let end = tokens.length;
  for (const cut of cuts.reverse()) {
    const clause = spanText(source, tokens.slice(cut + 1, end));
    if (isRecommendation(clause)) into.recommended.unshift(clause);
    else if (isNote(clause)) into.notes.unshift(clause);
    else break;
    end = cut;
  }
  return tokens.slice(0, end);
}

/** "MATH 260 may be taken concurrently." marks those courses; unknown ones become requirements. */
function concurrency(tokens: Token[], source: string, ctx: ParseContext, parts: RequirementNode[]): RequirementNode[] {
  const verb = tokens.findIndex((token, i) => (token.value === 'may' || token.value === 'can') && tokens[i + 1]?.value === 'be');
  const subject = tokens.slice(0, verb < 0 ? tokens.length : verb);
  const codes = new Set(codesIn(subject, source, ctx));
  const marked = parts.reduce((sum, part) => sum + markConcurrent(part, codes), 0);
  if (marked > 0) return parts;
  const node = parseClause(subject, source, ctx);
  markConcurrent(node);
  return [...parts, node];
}

/** "X may be substituted for Y" / "… may substitute X for Y": Y becomes "Y or X". */
function substitution(tokens: Token[], text: string, source: string, ctx: ParseContext, parts: RequirementNode[]): RequirementNode[] {
  const passive = tokens.findIndex((token, i) => token.value === 'may' && tokens[i + 1]?.value === 'be' && tokens[i + 2]?.value === 'substituted');
  const active = tokens.findIndex((token, i) => token.value === 'may' && tokens[i + 1]?.value === 'substitute');
  const may = passive >= 0 ? passive : active;
  const forIndex = tokens.findIndex((token, i) => i > may && token.value === 'for');
  let offered = tokens.slice(may + 2, forIndex);
  if (passive >= 0 || /^(these|them)$/.test(offered[0]?.value ?? '')) {
    // "Students who have completed both MATH 232 and 251 may substitute these courses for …"
    const before = tokens.slice(0, may);
    const firstCourse = before.findIndex((token) => token.kind === 'course');
    offered = firstCourse < 0 ? before : before.slice(firstCourse);
  }
  const target = tokens.slice(forIndex + 1);
  const replacement = parseClause(offered, source, ctx);
  if (/^the above/i.test(spanText(source, target))) return [anyOf([allOf(parts), replacement])];
  const codes = new Set(codesIn(target, source, ctx));
  let applied = false;
  const substitute = (node: RequirementNode): RequirementNode | undefined => {
    if (node.type === 'any' && [...codes].every((code) => node.children.some((child) => child.type === 'course' && child.code === code))) {
      applied = true;
      return anyOf([...node.children, cloneNode(replacement)]);
    }
    return undefined;
  };
  let updated = parts.map((part) => rewrite(part, substitute));
  if (!applied) {
    updated = parts.map((part) =>
      rewrite(part, (node) => (node.type === 'course' && codes.has(node.code) ? ((applied = true), anyOf([node, cloneNode(replacement)])) : undefined)),
    );
  }
  if (!applied || courseNodes(replacement).length === 0) return [...parts, { type: 'unparsed', text }];
  return updated;
}
