import { spawn } from 'node:child_process';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { round } from './stats.js';

export const DOMAIN_ENTRIES: Record<string, string> = {
  session: 'functions/session/handler.ts',
  user: 'functions/user/handler.ts',
  course: 'functions/course/handler.ts',
  transfer: 'functions/transfer/handler.ts',
  router: 'functions/router/handler.ts',
};

/** Same bundling the stack's DomainFunction asks esbuild for. */
export async function bundle(entry: string, outDir: string): Promise<string> {
  const outfile = path.join(outDir, `${path.basename(path.dirname(entry))}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return outfile;
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
process.stdout.write(JSON.stringify({ status: stream.metadata?.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
`;

/** What the cold-start runs ask each bundle: a store-free call every domain serves. */
const FIRST_EVENT = JSON.stringify({
  httpMethod: 'POST', path: '/v1/tools/tn_tools_list', headers: { host: 'x.execute-api.aws', 'content-type': 'application/json' },
  multiValueHeaders: {}, body: '{"domain":"user"}', isBase64Encoded: false, requestContext: {},
});

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
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-bench-'));
  const harness = path.join(dir, 'harness.mjs');
  await writeFile(harness, LAMBDA_HARNESS);
  const env = { ...process.env, TN_DATA_DIR: path.join(dir, 'data'), TN_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true', TN_RUNTIME: 'local' };

  const baselineRuns: number[] = [];
  for (let i = 0; i < runs; i++) baselineRuns.push((await timeProcess(['-e', 'process.stdout.write("ok")'], env)).ms);
  const baseline = median(baselineRuns);

  const domains = [];
  for (const [domain, entry] of Object.entries(DOMAIN_ENTRIES)) {
    const file = await bundle(entry, dir);
    const bytes = (await stat(file)).size;
    const gzipBytes = gzipSync(await readFile(file)).length;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { ms, stdout } = await timeProcess([harness, file, FIRST_EVENT], env);
      const result = JSON.parse(stdout);
      if (result.status !== 200) throw new Error(`${domain} bundle answered ${result.status}`);
      times.push(ms);
    }
    const medianMs = median(times);
    domains.push({ domain, bundleBytes: bytes, bundleGzipBytes: gzipBytes, medianFirstResponseMs: round(medianMs, 1), ratioToBareNode: round(medianMs / baseline, 2) });
  }
  return { runs, bareNodeStartMedianMs: round(baseline, 1), domains };
}
