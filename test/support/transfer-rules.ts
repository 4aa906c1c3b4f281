import { readFileSync } from 'node:fs';
import { parseBctgFile } from '../../functions/transfer/ingest/bctg-adapters.js';
import type { TransferRule } from '../../functions/transfer/rule-model.js';

const SAMPLE = 'data/sample/bctransferguide';
let cached: TransferRule[] | undefined;

let everyFile: TransferRule[] | undefined;

/** Every rule of the shipped BC Transfer Guide files, parsed as ingestion parses them (the April Langara export and Alexander's). */
export function shippedTransferRules(): TransferRule[] {
  cached ??= ['langara-transfers-2023-04.json', 'alexander-college-transfers-2025-06.json'].flatMap(
    (file) => parseBctgFile(readFileSync(`${SAMPLE}/${file}`, 'utf8'), '2026-01-01T00:00:00.000Z').rules,
  );
  return cached;
}

/** Every rule of every shipped file, the October Langara export (33 receivers) included; rules both exports hold are one. */
export function everyShippedTransferRule(): TransferRule[] {
  everyFile ??= [
    ...new Map(
      [...shippedTransferRules(), ...parseBctgFile(readFileSync(`${SAMPLE}/langara-transfers-2023-10.json`, 'utf8'), '2026-01-01T00:00:00.000Z').rules].map((rule) => [rule.ruleId, rule]),
    ).values(),
  ];
  return everyFile;
}

/** The rules of a pair listing any of the given courses, from every shipped file. */
export function everyRuleFor(sender: string, receiver: string, codes: string[]): TransferRule[] {
  return everyShippedTransferRule().filter((rule) => rule.senderInstitution === sender && rule.receiverInstitution === receiver && rule.sourceCourses.some((c) => codes.includes(c.code)));
}

/** The rules a resolve would read: the pair's rules that list any of the given courses. */
export function rulesFor(sender: string, receiver: string, codes: string[]): TransferRule[] {
  return shippedTransferRules().filter(
    (rule) => rule.senderInstitution === sender && rule.receiverInstitution === receiver && rule.sourceCourses.some((c) => codes.includes(c.code)),
  );
}
