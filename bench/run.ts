import { mkdir, writeFile } from 'node:fs/promises';
import { startLocalServer } from '../local/server.js';
import { measureColdStarts } from './cold-start.js';
import { measure, startBareSdkServer } from './protocol-overhead.js';
import { round } from './stats.js';

// Benchmarks, not tests: `npm run bench` (which sets TN_LOG_LEVEL and disables metrics output before
// any module loads). Figures are reported as ratios against baselines measured in the same run,
// because absolute numbers depend on the machine.

const quick = process.argv.includes('--quick');
const load = quick ? { warmup: 50, samples: 200, concurrency: 16, seconds: 2 } : { warmup: 300, samples: 2000, concurrency: 16, seconds: 8 };
const TOKEN = 'bench-token-0123456789';

const server = await startLocalServer({
  env: { ...process.env, PORT: '0', TN_LOCAL_TOKEN: TOKEN, TN_DATA_DIR: `${process.env.TMPDIR ?? '/tmp'}/tn-bench-data`, TN_TABLE_NAME: 'tn-bench' },
});
const bare = await startBareSdkServer();
try {
  const baseline = await measure({ name: 'bare SDK server, trivial tool', url: bare.url, tool: 'echo' }, load);
  const ours = await measure(
    { name: 'tn_user_preferences_get', url: `${server.url}/mcp`, tool: 'tn_user_preferences_get', headers: { authorization: `Bearer ${TOKEN}` } },
    load,
  );
  const framework = await measure(
    { name: 'tn_tools_list', url: `${server.url}/mcp`, tool: 'tn_tools_list', headers: { authorization: `Bearer ${TOKEN}` } },
    load,
  );
  const coldStart = await measureColdStarts(quick ? 3 : 10);
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    machine: { cpus: (await import('node:os')).cpus().length },
    protocolOverhead: {
      baseline: { name: 'bare SDK server, trivial tool, same node:http adapter', ...baseline },
      toolCall: { name: 'tn_user_preferences_get (auth, validation, DynamoDB Local GetItem, hints, metrics)', ...ours },
      frameworkOnly: { name: 'tn_tools_list (auth, validation, warm cache hit, hints, metrics; no store call)', ...framework },
      ratios: {
        toolCall: ratios(ours, baseline),
        frameworkOnly: ratios(framework, baseline),
      },
    },
    coldStart,
  };
  await mkdir('bench/results', { recursive: true });
  await writeFile('bench/results/foundation.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
} finally {
  await bare.close();
  await server.stop();
}

function ratios(measured: Awaited<ReturnType<typeof measure>>, baseline: Awaited<ReturnType<typeof measure>>) {
  return {
    p50: round(measured.latencyMs.p50 / baseline.latencyMs.p50, 2),
    p99: round(measured.latencyMs.p99 / baseline.latencyMs.p99, 2),
    callsPerSecond: round(measured.callsPerSecond / baseline.callsPerSecond, 2),
  };
}
