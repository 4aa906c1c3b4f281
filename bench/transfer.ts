import { readFile } from 'node:fs/promises';
import { measureParseCoverage } from '../functions/transfer/parse-coverage.js';
import { parseBctgFile } from '../functions/transfer/bctg-adapters.js';
import { resolveRules } from '../functions/transfer/resolve.js';
import type { TransferRule } from '../functions/transfer/rule-model.js';
import { callOnce, startBareSdkServer } from './protocol-overhead.js';
import { round, summarize } from './stats.js';

async function realRules(): Promise<TransferRule[]> {
  const ingestedAt = new Date().toISOString();
  const files = ['langara-transfers-2023-04.json', 'alexander-college-transfers-2025-06.json'];
  const parsed = await Promise.all(files.map(async (f) => parseBctgFile(await readFile(`data/sample/bctransferguide/${f}`, 'utf8'), ingestedAt).rules));
  return parsed.flat();
}

/**
 * 200,000 rules derived from the real ones: each copy keeps a real rule's shape (bundles, generic
 * targets, dates) under a synthetic sender subject, so a 40-course resolve meets realistic overlap.
 */
function syntheticRules(real: TransferRule[], size: number): TransferRule[] {
  const rules: TransferRule[] = [];
  for (let i = 0; i < size; i++) {
    const base = real[i % real.length]!;
    const copy = Math.floor(i / real.length);
    const rename = (code: string) => `${code.split(' ')[0]}${copy % 26 === 0 ? '' : String.fromCharCode(65 + (copy % 26))} ${code.split(' ')[1]}`;
    rules.push({ ...base, ruleId: `${base.ruleId}-${copy}`, sourceCourses: base.sourceCourses.map((c) => ({ ...c, code: rename(c.code) })) });
  }
  return rules;
}

export async function measureTransfer(serverUrl: string, queries: number) {
  const real = await realRules();
  const rules = syntheticRules(real, 200_000);
  const byCourse = new Map<string, TransferRule[]>();
  for (const rule of rules) for (const c of rule.sourceCourses) byCourse.set(c.code, [...(byCourse.get(c.code) ?? []), rule]);
  const langaraToSfu = real.filter((r) => r.senderInstitution === 'langara' && r.receiverInstitution === 'sfu');
  const codes = [...new Set(langaraToSfu.flatMap((r) => r.sourceCourses.map((c) => c.code)))].sort();
  const pick = (i: number) => Array.from({ length: 40 }, (_, k) => codes[(i * 37 + k * 11) % codes.length]!);

  // In-process: the candidate lookup (what the store returns) plus matching and the optimal plan.
  const inProcess: number[] = [];
  let matched = 0;
  for (let i = 0; i < queries; i++) {
    const given = pick(i);
    const started = performance.now();
    const candidates = [...new Set(given.flatMap((code) => byCourse.get(code) ?? []))];
    const resolution = resolveRules(candidates, given, '2023-01-01');
    inProcess.push(performance.now() - started);
    matched += resolution.exact.length;
  }

  // Through the local server on the shipped data: one BatchGetItem of the pair's index items (cold), then memory (warm).
  const roundTripsOf = async (sourceCourses: string[], asOfDate: string) =>
    (await (await fetch(`${serverUrl}/v1/tools/tn_transfer_resolve`, { method: 'POST', body: JSON.stringify({ sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses, asOfDate }) })).json()).roundTrips as number;
  const coldRoundTrips = await roundTripsOf(pick(0), '2022-12-30');
  const server: number[] = [];
  for (let i = 0; i < Math.min(queries, 300); i++) {
    // A date of its own per call, so no answer comes from the result cache (index items may come from memory).
    const asOfDate = new Date(Date.UTC(2022, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const args = { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: pick(i), asOfDate };
    server.push(await callOnce({ name: 'tn_transfer_resolve', url: `${serverUrl}/mcp/transfer`, tool: 'tn_transfer_resolve', args }, i));
  }
  const warmRoundTrips = await roundTripsOf(pick(0), '2022-12-31');

  // The same answer from a bare SDK tool: what an answer of this size costs any server on this stack.
  const sample = await (await fetch(`${serverUrl}/v1/tools/tn_transfer_resolve`, { method: 'POST', body: JSON.stringify({ sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: pick(1), asOfDate: '2021-06-01' }) })).json();
  const bare = await startBareSdkServer(sample);
  const barePayload: number[] = [];
  try {
    for (let i = 0; i < Math.min(queries, 300); i++) barePayload.push(await callOnce({ name: 'bare payload', url: bare.url, tool: 'payload', args: { i } }, i));
  } finally {
    await bare.close();
  }

  return {
    rules: rules.length,
    coursesPerResolve: 40,
    meanExactMatchesPerResolve: round(matched / queries, 1),
    inProcessMatchAndPlanMs: summarize(inProcess),
    localServerResolveMs: summarize(server),
    bareSdkSamePayloadMs: { name: 'bare SDK tool answering one such resolve result (structured + JSON text)', answerBytes: JSON.stringify(sample).length, ...summarize(barePayload) },
    storeRoundTripsPerResolve: { cold: coldRoundTrips, warm: warmRoundTrips },
    parseCoverage: (await measureParseCoverage()).map((f: any) => ({ file: f.file, rules: f.rules, fullyParsedShare: f.fullyParsedShare, awardsTypedShare: f.awardsTypedShare })),
  };
}
