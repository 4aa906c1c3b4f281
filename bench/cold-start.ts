import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleFunction, type FunctionBundle } from '../lib/constructs/lambda-bundling.js';
import { round } from './stats.js';

export const DOMAIN_ENTRIES: Record<string, string> = {
  session: 'functions/session/handler.ts',
  user: 'functions/user/handler.ts',
  course: 'functions/course/handler.ts',
  transfer: 'functions/transfer/handler.ts',
  router: 'functions/router/handler.ts',
};

export const AUTHORIZATION_SERVER_ENTRY = 'functions/oauth/handler.ts';

/** An entry bundled as the stack bundles it (bundleFunction), into a folder of its own under outDir. */
export function bundle(entry: string, outDir: string): FunctionBundle {
  return bundleFunction(entry, path.join(outDir, path.basename(path.dirname(entry))));
}

/** A fresh folder under the project's ignored local state, so any module left external resolves from node_modules. */
export async function bundleDir(): Promise<string> {
  await mkdir(path.resolve('.tutor-nexus'), { recursive: true });
  return mkdtemp(path.resolve('.tutor-nexus/bundles-'));
}

/** The Lambda streaming runtime reduced to its globals: loads a bundle (argv[2]) and answers one API Gateway event (argv[3]). */
export const LAMBDA_HARNESS = `
globalThis.awslambda = {
  streamifyResponse: (h) => h,
  HttpResponseStream: { from: (s, m) => { s.metadata = m; return s; } },
};
const { Writable } = await import('node:stream');
const { handler } = await import(process.argv[2]);
const chunks = [];
const stream = new Writable({ write(c, _e, cb) { chunks.push(c); cb(); } });
await handler(JSON.parse(process.argv[3]), stream, { functionName: 'bench', awsRequestId: 'r', getRemainingTimeInMillis: () => 30000 });
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ status: stream.metadata?.statusCode, headers: stream.metadata?.headers, cookies: stream.metadata?.cookies, body: Buffer.concat(chunks).toString('utf8'), cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** What the cold-start runs ask each bundle: a store-free call every domain serves. */
const FIRST_EVENT = JSON.stringify({
  httpMethod: 'POST', path: '/v1/tools/tn_tools_list', headers: { host: 'x.execute-api.aws', 'content-type': 'application/json' },
  multiValueHeaders: {}, body: '{"domain":"user"}', isBase64Encoded: false, requestContext: {},
});

/** And the authorization server: its metadata, which every connector reads first (no store call). */
const AUTHORIZATION_SERVER_BASE = 'https://x.execute-api.aws/prod';
const AUTHORIZATION_SERVER_EVENT = JSON.stringify({
  httpMethod: 'GET', path: '/.well-known/oauth-authorization-server', headers: { host: 'x.execute-api.aws' },
  multiValueHeaders: {}, body: null, isBase64Encoded: false, requestContext: {},
});
const AUTHORIZATION_SERVER_ENV = { TN_OAUTH_ISSUER: AUTHORIZATION_SERVER_BASE, TN_PUBLIC_BASE_URL: AUTHORIZATION_SERVER_BASE, TN_OAUTH_SECRET: 'bench-signing-secret' };

/**
 * Wall-clock time from spawn to exit, and the CPU time the process reports (user + system) up to its
 * answer: on a machine other work shares, wall-clock ratios move with the load, CPU time much less.
 */
function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`exit ${code}: ${stderr.slice(-500)}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function measureColdStarts(runs: number) {
  const dir = await bundleDir();
  const harness = path.join(dir, 'harness.mjs');
  await writeFile(harness, LAMBDA_HARNESS);
  const env = { ...process.env, TN_DATA_DIR: path.join(dir, 'data'), TN_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true', TN_RUNTIME: 'local' };

  const baselineRuns: number[] = [];
  const baselineCpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { ms, stdout } = await timeProcess(['-e', 'const c = process.cpuUsage(); process.stdout.write(JSON.stringify({ cpuMs: (c.user + c.system) / 1000 }))'], env);
    baselineRuns.push(ms);
    baselineCpu.push(JSON.parse(stdout).cpuMs);
  }
  const baseline = median(baselineRuns);
  const cpuBaseline = median(baselineCpu);

  // The bare SDK server bundled the same way: what any MCP server on this SDK costs to start.
  const bareSdk = bundle('bench/bare-sdk-entry.ts', dir).file;
  const bareHarness = path.join(dir, 'bare-harness.mjs');
  await writeFile(bareHarness, "const { handle } = await import(process.argv[2]); process.stdout.write(JSON.stringify(await handle()));");
  const bareSdkRuns: number[] = [];
  for (let i = 0; i < runs; i++) bareSdkRuns.push((await timeProcess([bareHarness, bareSdk], env)).ms);
  const bareSdkStart = median(bareSdkRuns);

  const functions = [
    ...Object.entries(DOMAIN_ENTRIES).map(([domain, entry]) => ({ domain, entry, event: FIRST_EVENT, env })),
    { domain: 'oauth', entry: AUTHORIZATION_SERVER_ENTRY, event: AUTHORIZATION_SERVER_EVENT, env: { ...env, ...AUTHORIZATION_SERVER_ENV } },
  ];
  const domains = [];
  for (const { domain, entry, event, env: functionEnv } of functions) {
    const built = bundle(entry, dir);
    const gzipBytes = gzipSync(Buffer.concat(await Promise.all(built.startFiles.map((file) => readFile(file))))).length;
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { ms, stdout } = await timeProcess([harness, built.file, event], functionEnv);
      const result = JSON.parse(stdout);
      if (result.status !== 200) throw new Error(`${domain} bundle answered ${result.status}`);
      times.push(ms);
      cpuTimes.push(result.cpuMs);
    }
    const medianMs = median(times);
    const medianCpuMs = median(cpuTimes);
    domains.push({
      domain,
      // What a cold start loads (index.mjs and the chunks it imports statically), and what loads only with the calls that need it.
      bundleBytes: built.startBytes,
      onDemandBytes: built.onDemandBytes,
      bundleGzipBytes: gzipBytes,
      medianFirstResponseMs: round(medianMs, 1),
      ratioToBareNode: round(medianMs / baseline, 2),
      ratioToBareSdkServer: round(medianMs / bareSdkStart, 2),
      medianFirstResponseCpuMs: round(medianCpuMs, 1),
      cpuRatioToBareNode: round(medianCpuMs / cpuBaseline, 2),
    });
  }
  await rm(dir, { recursive: true, force: true });
  return { runs, bareNodeStartMedianMs: round(baseline, 1), bareNodeStartMedianCpuMs: round(cpuBaseline, 1), bareSdkServerFirstAnswerMedianMs: round(bareSdkStart, 1), bareSdkServerRatioToBareNode: round(bareSdkStart / baseline, 2), domains };
}
