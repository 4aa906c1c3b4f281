import { readFileSync } from 'node:fs';
import { parseBctgFile } from '../../functions/transfer/bctg-adapters.js';
import type { TransferRule } from '../../functions/transfer/rule-model.js';

const SAMPLE = 'data/sample/bctransferguide';
let cached: TransferRule[] | undefined;

/** Every rule of the shipped BC Transfer Guide files, parsed as ingestion parses them. */
export function shippedTransferRules(): TransferRule[] {
  cached ??= ['langara-transfers-2023-04.json', 'alexander-college-transfers-2025-06.json'].flatMap(
    (file) => parseBctgFile(readFileSync(`${SAMPLE}/${file}`, 'utf8'), '2026-01-01T00:00:00.000Z').rules,
  );
  return cached;
}

/** The rules a resolve would read: the pair's rules that list any of the given courses. */
export function rulesFor(sender: string, receiver: string, codes: string[]): TransferRule[] {
  return shippedTransferRules().filter(
    (rule) => rule.senderInstitution === sender && rule.receiverInstitution === receiver && rule.sourceCourses.some((c) => codes.includes(c.code)),
  );
}
