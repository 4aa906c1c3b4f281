import { DetailParser } from './detail-rules.js';
import type { DetailContext } from './detail-targets.js';
import type { ParsedRule } from '../rule-model.js';

/**
 * Parser for BC Transfer Guide credit expressions. The API splits a "Transfer Credit" cell into
 * Detail + Condition at its first comma (even mid-expression: Detail "SFU CHEM 283 (3)", Condition
 * "Q & SFU CHEM 286 (1) - Q"), and the PDF export glues them back; so both are parsed as one string:
 * [sources "="] award, then clauses (designations, alternatives, exemptions, preclusions, labels, prose).
 */

export type { DetailContext } from './detail-targets.js';

/** Parses a BCTG credit expression (plus its Condition, when the source keeps it separate). Never throws. */
export function parseTransferDetail(detail: string, context: DetailContext): ParsedRule {
  const condition = context.condition?.trim();
  return new DetailParser(condition ? `${detail}, ${condition}` : detail, context).parse();
}
