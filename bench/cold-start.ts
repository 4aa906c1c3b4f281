import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { externalsFor, LAMBDA_BUNDLING } from '../lib/constructs/lambda-bundling.js';
import { VIEW_PAGES_DIR } from '../functions/shared/surface/view-pages.js';
import { buildViewPages, viewNames, writeViewPages } from '../web/views/build.js';
import { round } from './stats.js';

export const DOMAIN_ENTRIES: Record<string, string> = {
  session: 'functions/session/handler.ts',
  user: 'functions/user/handler.ts',
  course: 'functions/course/handler.ts',
  transfer: 'functions/transfer/handler.ts',
  router: 'functions/router/handler.ts',
};

/** Same bundling the stack's functions ask esbuild for (lib/constructs/lambda-bundling.ts). */
export async function bundle(entry: string, outDir: string): Promise<string> {
  const outfile = path.join(outDir, `${path.basename(path.dirname(entry))}.mjs`);
  const common = {
    bundle: true,
    platform: 'node' as const,
    format: LAMBDA_BUNDLING.format,
    target: LAMBDA_BUNDLING.target,
    minify: LAMBDA_BUNDLING.minify,
    mainFields: [...LAMBDA_BUNDLING.mainFields],
    banner: { js: LAMBDA_BUNDLING.banner },
    alias: LAMBDA_BUNDLING.alias,
    logLevel: 'silent' as const,
  };
  await build({ ...common, entryPoints: [entry], outfile, external: externalsFor(entry) });
  for (const part of LAMBDA_BUNDLING.lazyParts[entry] ?? []) {
    await build({ ...common, entryPoints: [part.entry], outfile: path.join(outDir, part.importPath), external: [...LAMBDA_BUNDLING.external] });
  }
  if (LAMBDA_BUNDLING.viewEntries.includes(entry)) writeViewPages(await buildViewPages(viewNames()), path.join(outDir, VIEW_PAGES_DIR));
  return outfile;
}

/** Bytes of an entry's lazy parts (loaded on some calls only), beside the bundle. */
export async function lazyPartBytes(entry: string, outDir: string): Promise<number> {
  let bytes = 0;
  for (const part of LAMBDA_BUNDLING.lazyParts[entry] ?? []) bytes += (await stat(path.join(outDir, part.importPath))).size;
  return bytes;
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
  const dir = await bundleDir();
  const harness = path.join(dir, 'harness.mjs');
  await writeFile(harness, LAMBDA_HARNESS);
  const env = { ...process.env, TN_DATA_DIR: path.join(dir, 'data'), TN_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true', TN_RUNTIME: 'local' };

  const baselineRuns: number[] = [];
  for (let i = 0; i < runs; i++) baselineRuns.push((await timeProcess(['-e', 'process.stdout.write("ok")'], env)).ms);
  const baseline = median(baselineRuns);

  // The bare SDK server bundled the same way: what any MCP server on this SDK costs to start.
  const bareSdk = await bundle('bench/bare-sdk-entry.ts', dir);
  const bareHarness = path.join(dir, 'bare-harness.mjs');
  await writeFile(bareHarness, "const { handle } = await import(process.argv[2]); process.stdout.write(JSON.stringify(await handle()));");
  const bareSdkRuns: number[] = [];
  for (let i = 0; i < runs; i++) bareSdkRuns.push((await timeProcess([bareHarness, bareSdk], env)).ms);
  const bareSdkStart = median(bareSdkRuns);

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
    domains.push({ domain, bundleBytes: bytes, lazyPartBytes: await lazyPartBytes(entry, dir), bundleGzipBytes: gzipBytes, medianFirstResponseMs: round(medianMs, 1), ratioToBareNode: round(medianMs / baseline, 2), ratioToBareSdkServer: round(medianMs / bareSdkStart, 2) });
  }
  await rm(dir, { recursive: true, force: true });
  return { runs, bareNodeStartMedianMs: round(baseline, 1), bareSdkServerFirstAnswerMedianMs: round(bareSdkStart, 1), bareSdkServerRatioToBareNode: round(bareSdkStart / baseline, 2), domains };
}
