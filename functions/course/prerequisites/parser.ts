import { institutionId } from '../../catalog/institutions.js';
import type { ParseContext } from './cursor.js';
import { allOf, markConcurrent, unparsedTexts } from './nodes.js';
import { handleSentence } from './sentences.js';
import { normalizeText, splitSentences, tokenize } from './tokenizer.js';
import type { ParseResult, RequirementNode } from './tree.js';

export interface ParsePrerequisiteOptions {
  /** Institution offering the courses named in the text, e.g. "sfu"; set on every course node. */
  institution: string;
  /** Subject for bare course numbers when the text names none ("1118 or 1120"). */
  defaultSubject?: string;
  /** The text is a corequisite field (UBC `crer`, SFU `corequisites`): every course may be concurrent. */
  corequisite?: boolean;
}

/**
 * Parses catalog prerequisite prose into a requirement tree. Never throws on text: clauses it cannot
 * type become `unparsed` nodes and are listed in `unparsedClauses`, so callers always know what was
 * understood. An empty or "None" text is an empty `all`.
 */
export function parsePrerequisites(text: string, options: ParsePrerequisiteOptions): ParseResult {
  const source = normalizeText(text ?? '');
  const ctx: ParseContext = {
    institution: institutionId(options.institution),
    defaultSubject: options.defaultSubject?.trim().toUpperCase() || undefined,
    recommended: [],
    notes: [],
    concurrent: [],
  };
  let parts: RequirementNode[] = [];
  for (const sentence of splitSentences(tokenize(source))) {
    parts = handleSentence(sentence, source, ctx, parts);
  }
  const tree = allOf(parts);
  if (options.corequisite) markConcurrent(tree);
  const unparsedClauses = unparsedTexts(tree);
  return {
    tree,
    fullyParsed: unparsedClauses.length === 0,
    unparsedClauses,
    recommended: ctx.recommended,
    notes: ctx.notes,
  };
}
