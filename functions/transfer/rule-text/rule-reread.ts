import { parseTransferDetail } from './detail-parser.js';
import { PARSER_VERSION, type TransferRule } from '../rule-model.js';

const memo = new WeakMap<TransferRule, TransferRule>();

/**
 * A rule as the current parser reads its published text. Rules stored by an older parser (no
 * `parserVersion`, or a lower one) are read again, so a parsing fix reaches every stored rule without
 * waiting for the next ingestion; identity, dates, evidence and provenance stay as stored.
 */
export function currentReading(rule: TransferRule): TransferRule {
  if (rule.parserVersion === PARSER_VERSION) return rule;
  let reread = memo.get(rule);
  if (!reread) {
    const own = rule.sourceCourses[0]!;
    const [subject = '', number = ''] = own.code.split(' ');
    const parsed = parseTransferDetail(rule.rawDetail, {
      sender: rule.senderInstitution,
      receiver: rule.receiverInstitution,
      sourceCourse: { subject, number, credits: own.credits },
      condition: rule.rawCondition,
    });
    reread = { ...rule, ...parsed, sourceCourses: rule.sourceCourses, designations: [...new Set(parsed.targets.flatMap((t) => t.designations ?? []))] };
    memo.set(rule, reread);
  }
  return reread;
}
