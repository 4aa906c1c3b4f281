import { readFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { measureParseCoverage, measureSuspiciousShapes } from '../functions/transfer/rule-text/parse-coverage.js';
import { parseBctgFile } from '../functions/transfer/ingest/bctg-adapters.js';
import { resolveRules } from '../functions/transfer/resolve/resolve.js';
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

/** In-process: the candidate lookup (what the store returns) plus matching and the optimal plan, on 200,000 rules. */
function measureInProcess(real: TransferRule[], pick: (i: number) => string[], queries: number) {
  const rules = syntheticRules(real, 200_000);
  const byCourse = new Map<string, TransferRule[]>();
  for (const rule of rules) for (const c of rule.sourceCourses) byCourse.set(c.code, [...(byCourse.get(c.code) ?? []), rule]);
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
  return { rules: rules.length, meanExactMatchesPerResolve: round(matched / queries, 1), inProcessMatchAndPlanMs: summarize(inProcess) };
}

export async function measureTransfer(serverUrl: string, queries: number) {
  const real = await realRules();
  const langaraToSfu = real.filter((r) => r.senderInstitution === 'langara' && r.receiverInstitution === 'sfu');
  const codes = [...new Set(langaraToSfu.flatMap((r) => r.sourceCourses.map((c) => c.code)))].sort();
  const pick = (i: number) => Array.from({ length: 40 }, (_, k) => codes[(i * 37 + k * 11) % codes.length]!);
  const inProcess = measureInProcess(real, pick, queries);
  // The 200,000 synthetic rules are garbage now: collected here, not during the calls measured below.
  (globalThis as { gc?: () => void }).gc?.();

  // Through the local server on the shipped data: one BatchGetItem of the pair's index items (cold), then memory (warm).
  const roundTripsOf = async (sourceCourses: string[], asOfDate: string) =>
    (await (await fetch(`${serverUrl}/v1/tools/tn_transfer_resolve`, { method: 'POST', body: JSON.stringify({ sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses, asOfDate }) })).json()).roundTrips as number;
  const coldRoundTrips = await roundTripsOf(pick(0), '2022-12-30');
  // A date of its own per call, so no answer comes from the result cache (index items may come from memory).
  const resolveCall = (i: number, year = 2022) => ({
    name: 'tn_transfer_resolve',
    url: `${serverUrl}/mcp/transfer`,
    tool: 'tn_transfer_resolve',
    args: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: pick(i), asOfDate: new Date(Date.UTC(year, 0, 1) + i * 86_400_000).toISOString().slice(0, 10) },
  });

  // The same answer from a bare SDK tool (what an answer of this size costs any server on this stack), and
  // that server's trivial tool: the three are called in turn, so each sees the same machine and heap.
  const sample = await (await fetch(`${serverUrl}/v1/tools/tn_transfer_resolve`, { method: 'POST', body: JSON.stringify({ sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: pick(1), asOfDate: '2021-06-01' }) })).json();
  const bare = await startBareSdkServer(sample);
  const server: number[] = [];
  const barePayload: number[] = [];
  const trivial: number[] = [];
  try {
    const samples = Math.min(queries, 300);
    for (let i = 0; i < 30; i++) {
      await callOnce(resolveCall(i, 2019), i);
      await callOnce({ name: 'bare payload', url: bare.url, tool: 'payload', args: { i } }, i);
      await callOnce({ name: 'bare trivial', url: bare.url, tool: 'echo' }, i);
    }
    for (let i = 0; i < samples; i++) {
      server.push(await callOnce(resolveCall(i), i));
      barePayload.push(await callOnce({ name: 'bare payload', url: bare.url, tool: 'payload', args: { i } }, i));
      trivial.push(await callOnce({ name: 'bare trivial', url: bare.url, tool: 'echo' }, i));
    }
  } finally {
    await bare.close();
  }
  const warmRoundTrips = await roundTripsOf(pick(0), '2022-12-31');

  return {
    rules: inProcess.rules,
    coursesPerResolve: 40,
    meanExactMatchesPerResolve: inProcess.meanExactMatchesPerResolve,
    inProcessMatchAndPlanMs: inProcess.inProcessMatchAndPlanMs,
    localServerResolveMs: summarize(server),
    bareSdkSamePayloadMs: { name: 'bare SDK tool answering one such resolve result (structured + JSON text)', answerBytes: JSON.stringify(sample).length, ...summarize(barePayload) },
    bareSdkTrivialMs: { name: 'bare SDK server, trivial tool, called in turn with the resolves (same machine state)', ...summarize(trivial) },
    storeRoundTripsPerResolve: { cold: coldRoundTrips, warm: warmRoundTrips },
    parseCoverage: (await measureParseCoverage()).map((f: any) => ({ file: f.file, rules: f.rules, fullyParsedShare: f.fullyParsedShare, awardsTypedShare: f.awardsTypedShare })),
    suspiciousShapes: suspiciousShapes(),
  };
}

/** The suspicious-shape scan over every rule of the shipped files and of ../shared/data's (every BCTG file there), with a few examples each. */
function suspiciousShapes() {
  const dirs = ['data/sample/bctransferguide', '../shared/data/bctransferguide'].filter((dir) => existsSync(dir));
  return dirs.flatMap((dir) => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.includes('search-from-response'));
    return measureSuspiciousShapes({ dir, files }).map(({ dir: from, file, counts, examples }) => ({ dir: from, file, ...counts, examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, v.slice(0, 2)])) }));
  });
}
