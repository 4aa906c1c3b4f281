import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { startLocalServer } from '../local/server.js';
import { measureIndexLoad, measureIngestion, measureSearch, realCourses } from './catalog.js';
import { measureColdStarts } from './cold-start.js';
import { measureCompletion } from './completion.js';
import { measureTransfer } from './transfer.js';
import { measureTimetable, timetableRatios } from './timetable.js';
import { startInstantProvider } from './instant-provider.js';
import { measureSession } from './session.js';
import { callOnce, measure, startBareSdkServer } from './protocol-overhead.js';
import { loadFromOutside } from './external-load.js';
import { measureWebApp } from './web.js';
import { measureStartup } from './startup.js';
import { measureCrawls } from './crawl.js';
import { round, summarize } from './stats.js';
import { writeResultsSummary } from './results-summary.js';

// Benchmarks, not tests: `npm run bench [-- --quick] [-- --only foundation|catalog|timetable|completion|transfer|session|web|startup|crawl]` (the script sets
// TN_LOG_LEVEL and disables metrics output before any module loads). Figures are reported as ratios
// against baselines measured in the same run, because absolute numbers depend on the machine.

const quick = process.argv.includes('--quick');
const only = process.argv[process.argv.indexOf('--only') + 1];
const runs = (name: string) => !process.argv.includes('--only') || only === name;
const load = quick ? { warmup: 50, samples: 200, concurrency: 16, seconds: 2 } : { warmup: 300, samples: 2000, concurrency: 16, seconds: 8 };
const TOKEN = 'bench-token-0123456789';

// First, alone on the machine: replayed sites and an in-memory DynamoDB Local of its own, no server needed.
if (runs('crawl')) {
  await mkdir('bench/results', { recursive: true });
  await report('crawl', { machine: { cpus: os.cpus().length, node: process.version, date: new Date().toISOString() }, ...(await measureCrawls()) });
  if (only === 'crawl') process.exit(0);
}

// The tutor's OpenAI endpoint is an instant local provider, and the prompt quota never refuses.
const provider = await startInstantProvider();
const server = await startLocalServer({
  env: {
    ...process.env,
    PORT: '0',
    TN_LOCAL_TOKEN: TOKEN,
    TN_DATA_DIR: `${os.tmpdir()}/tn-bench-data`,
    TN_TABLE_NAME: 'tn-bench',
    TN_OPENAI_BASE_URL: provider.baseUrl,
    TN_PROMPTS_PER_DAY: '10000000',
    // The full sample, loaded before the server answers (ADR 0021), so course reads see real partitions
    // and subject packs (tn_course_get's refs come from it).
    TN_SAMPLE_CATALOG: 'on',
  },
});
// The search index of a staged first load is built behind the banner: wait for it, so nothing measured shares the machine with it.
await callOnce({ name: 'search index warm-up', url: `${server.url}/mcp/course`, tool: 'tn_course_search', args: { query: 'calculus' } }, 0);
const bare = await startBareSdkServer();
const machine = { cpus: os.cpus().length, node: process.version, date: new Date().toISOString() };
await mkdir('bench/results', { recursive: true });
try {
  const baseline = await measure({ name: 'bare SDK server, trivial tool', url: bare.url, tool: 'echo' }, load);
  const auth = { authorization: `Bearer ${TOKEN}` };

  if (runs('foundation')) {
    const ours = await measure({ name: 'tn_user_preferences_get', url: `${server.url}/mcp`, tool: 'tn_user_preferences_get', headers: auth }, load);
    const framework = await measure({ name: 'tn_tools_list', url: `${server.url}/mcp`, tool: 'tn_tools_list', headers: auth }, load);
    // Throughput from a load generator in its own process (autocannon), each target alone on the machine.
    const outside = { connections: load.concurrency, seconds: load.seconds };
    const external = {
      baseline: { name: 'bare SDK server, trivial tool', ...(await loadFromOutside({ name: 'bare', url: bare.url, tool: 'echo' }, outside)) },
      storeFree: {
        name: 'tn_tools_list {tag:"byok"} on /mcp/user (auth, validation, hints, metrics; small answer, no store call)',
        ...(await loadFromOutside({ name: 'tools_list byok', url: `${server.url}/mcp/user`, tool: 'tn_tools_list', args: { tag: 'byok' }, headers: auth }, outside)),
      },
      toolsList: {
        name: 'tn_tools_list {} on /mcp (every tool summarised: the answer size is part of the cost)',
        ...(await loadFromOutside({ name: 'tools_list', url: `${server.url}/mcp`, tool: 'tn_tools_list', headers: auth }, outside)),
      },
      toolCall: {
        name: 'tn_user_preferences_get (DynamoDB Local GetItem)',
        ...(await loadFromOutside({ name: 'preferences', url: `${server.url}/mcp`, tool: 'tn_user_preferences_get', headers: auth }, outside)),
      },
    };
    const coldStart = await measureColdStarts(quick ? 3 : 10);
    await report('foundation', {
      machine,
      protocolOverhead: {
        baseline: { name: 'bare SDK server, trivial tool, same node:http adapter', ...baseline },
        toolCall: { name: 'tn_user_preferences_get (auth, validation, DynamoDB Local GetItem, hints, metrics)', ...ours },
        frameworkOnly: { name: 'tn_tools_list (auth, validation, warm cache hit, hints, metrics; no store call)', ...framework },
        ratios: { toolCall: ratios(ours, baseline), frameworkOnly: ratios(framework, baseline) },
      },
      externalLoad: {
        ...external,
        ratios: {
          storeFreeCallsVsBaseline: round(external.storeFree.callsPerSecond / external.baseline.callsPerSecond, 2),
          toolsListCallsVsBaseline: round(external.toolsList.callsPerSecond / external.baseline.callsPerSecond, 2),
          toolCallCallsVsBaseline: round(external.toolCall.callsPerSecond / external.baseline.callsPerSecond, 2),
        },
      },
      coldStart,
    });
  }

  if (runs('startup')) {
    // Child processes of their own, each alone: the bench's own server sits idle meanwhile.
    await report('startup', { machine, ...(await measureStartup({ firstStarts: quick ? 2 : 3, cachedStarts: 3, restarts: quick ? 3 : 5 })) });
  }

  if (runs('catalog')) {
    const search = await measureSearch(quick ? 20_000 : 100_000, quick ? 200 : 1000);
    const indexLoad = await measureIndexLoad(server.services.store, quick ? 5 : 20);
    const refs = (await realCourses()).map((c) => c.ref);
    const target = { name: 'tn_course_get', url: `${server.url}/mcp/course`, tool: 'tn_course_get' };
    // Cold: every call asks for a course not read before (result cache and bundle cache miss).
    const coldSamples: number[] = [];
    const coldCount = quick ? 150 : 600;
    for (let i = 0; i < coldCount; i++) coldSamples.push(await callOnce({ ...target, args: { course: refs[(i * 13) % refs.length] } }, i));
    const cached = await measure({ ...target, args: { course: 'sfu:CMPT 225' } }, { ...load, seconds: quick ? 1 : 3 });
    const cold = summarize(coldSamples);
    const ingestion = await measureIngestion(server.dynamoDbEndpoint);
    await report('catalog', {
      machine,
      search,
      indexLoad,
      courseGet: {
        cold: { name: 'tn_course_get, a different course each call (DynamoDB Local Query + merge)', latencyMs: cold },
        cached: { name: 'tn_course_get, the same course (warm result cache)', ...cached },
        baseline: { name: 'bare SDK server, trivial tool', latencyMs: baseline.latencyMs },
        ratios: {
          coldP50VsBaseline: round(cold.p50 / baseline.latencyMs.p50, 2),
          cachedP50VsBaseline: round(cached.latencyMs.p50 / baseline.latencyMs.p50, 2),
          cachedP50VsCold: round(cached.latencyMs.p50 / cold.p50, 2),
        },
      },
      ingestion,
    });
  }
  if (runs('timetable')) {
    const timetable = await measureTimetable(server.url, quick ? 30 : 200);
    await report('timetable', { machine, ...timetable, baseline: { name: 'bare SDK server, trivial tool', latencyMs: baseline.latencyMs }, ratios: timetableRatios(timetable, baseline.latencyMs.p50) });
  }
  if (runs('completion')) {
    const completion = await measureCompletion(server.url, { samples: quick ? 300 : 2000, size: quick ? 20_000 : 100_000 });
    await report('completion', {
      machine,
      ...completion,
      baseline: { name: 'bare SDK server, trivial tool', latencyMs: baseline.latencyMs },
      ratios: {
        httpP50VsBaseline: round(completion.overHttp.latencyMs.p50 / baseline.latencyMs.p50, 2),
        httpP99VsBaseline: round(completion.overHttp.latencyMs.p99 / baseline.latencyMs.p99, 2),
      },
    });
  }
  if (runs('transfer')) {
    const transfer = await measureTransfer(server.url, quick ? 100 : 500);
    await report('transfer', {
      machine,
      ...transfer,
      baseline: { name: 'bare SDK server, trivial tool', latencyMs: baseline.latencyMs },
      ratios: {
        // Against the trivial call made in turn with the resolves; the run-start baseline beside it.
        serverP50VsBaseline: round(transfer.localServerResolveMs.p50 / transfer.bareSdkTrivialMs.p50, 2),
        serverP50VsRunStartBaseline: round(transfer.localServerResolveMs.p50 / baseline.latencyMs.p50, 2),
        serverP50VsBareSamePayload: round(transfer.localServerResolveMs.p50 / transfer.bareSdkSamePayloadMs.p50, 2),
        serverP99VsBaseline: round(transfer.localServerResolveMs.p99 / baseline.latencyMs.p99, 2),
        inProcessShareOfServerP50: round(transfer.inProcessMatchAndPlanMs.p50 / transfer.localServerResolveMs.p50, 3),
      },
    });
  }
  if (runs('session')) {
    const session = await measureSession(
      { url: server.url, token: TOKEN, providerBaseUrl: provider.baseUrl, store: server.services.store },
      { warmup: 30, samples: quick ? 100 : 400, concurrency: load.concurrency, seconds: load.seconds },
    );
    const { streamed, plain, throughput } = session;
    await report('session', {
      machine,
      ...session,
      baseline: { name: 'bare SDK server, trivial tool', ...baseline },
      ratios: {
        firstProgressVsDirectProvider: percentileRatios(streamed.ours.firstProgressMs, streamed.directProvider.firstDeltaMs),
        resultVsDirectProvider: percentileRatios(streamed.ours.resultMs, streamed.directProvider.finishMs),
        plainVsDirectProvider: percentileRatios(plain.ours.resultMs, plain.directProvider.resultMs),
        resultVsBaseline: percentileRatios(streamed.ours.resultMs, baseline.latencyMs),
        plainVsBaseline: percentileRatios(plain.ours.resultMs, baseline.latencyMs),
        asksPerSecondVsBaselineCalls: round(throughput.ownSessions.asksPerSecond / baseline.callsPerSecond, 2),
        oneSessionVsOwnSessions: round(throughput.oneSession.asksPerSecond / throughput.ownSessions.asksPerSecond, 2),
      },
    });
  }
  if (runs('web')) await report('web', { machine, ...(await measureWebApp(server.url)) });
} finally {
  await bare.close();
  await server.stop();
  await provider.close();
}
// bench/README.md quotes what this run wrote (its narrative stays as written).
writeResultsSummary();

async function report(name: string, results: Record<string, unknown>) {
  await writeFile(`bench/results/${name}.json`, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`== ${name}\n${JSON.stringify(results, null, 2)}`);
}

function ratios(measured: Awaited<ReturnType<typeof measure>>, base: Awaited<ReturnType<typeof measure>>) {
  return {
    p50: round(measured.latencyMs.p50 / base.latencyMs.p50, 2),
    p99: round(measured.latencyMs.p99 / base.latencyMs.p99, 2),
    callsPerSecond: round(measured.callsPerSecond / base.callsPerSecond, 2),
  };
}

function percentileRatios(measured: { p50: number; p99: number }, base: { p50: number; p99: number }) {
  return { p50: round(measured.p50 / base.p50, 2), p99: round(measured.p99 / base.p99, 2) };
}
