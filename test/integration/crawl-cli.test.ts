import { spawn } from 'node:child_process';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SfuOutlinesReplay } from '../support/sfu-outlines-replay.js';
import { BctgReplay } from '../support/bctg-replay.js';

/** `npm run ingest -- …` as an operator runs it: the real entry in its own process, against the run's DynamoDB Local. */
function ingest(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ingest.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'), TN_LOG_LEVEL: 'ERROR', TN_CRAWL_BACKOFF_MS: '20', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => out };
}

let sfu: SfuOutlinesReplay;
let bctg: BctgReplay;
let env: Record<string, string>;

beforeAll(async () => {
  sfu = new SfuOutlinesReplay();
  bctg = new BctgReplay();
  env = { ...(await sfu.start()), ...(await bctg.start()) };
});
afterAll(async () => {
  await sfu?.close();
  await bctg?.close();
});

describe('npm run ingest -- --crawl', () => {
  it('crawls SFU outlines for --term, is killed outright halfway, and the same command resumes after the last department it finished', async () => {
    const table = { TN_TABLE_NAME: `tn-crawl-cli-${ulid()}` };
    sfu.site.latencyMs = 25;
    let outlines = 0;
    const first = ingest(['--source', 'sfu-outlines', '--crawl', '--term', '2026/fall'], { ...env, ...table });
    // Killed (SIGKILL: no chance to save) once the second department is under way.
    sfu.site.onRequest = (request) => {
      if (request.url.includes('?2026/fall/stat/') && (request.url.split('?')[1] ?? '').split('/').length === 5 && ++outlines === 5) first.child.kill('SIGKILL');
    };
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    sfu.site.onRequest = undefined;
    sfu.site.resetCounters();

    const second = ingest(['--source', 'sfu-outlines', '--crawl', '--term', '2026/fall'], { ...env, ...table });
    const done = await second.exited;
    expect(done.code, second.output()).toBe(0);
    expect(second.output()).toMatch(/sfu-outlines crawl terms:2026-fall: complete/);
    expect(second.output()).toMatch(/pages: \d+ fetched, \d+ unchanged, 0 failed, 1 missing/);
    // MACM was finished and saved before the kill: the resumed crawl never asks for it again.
    expect(sfu.site.log.some((r) => r.url.includes('?2026/fall/macm'))).toBe(false);
    expect(sfu.site.log.some((r) => r.url.includes('?2026/fall/stat'))).toBe(true);
    sfu.site.latencyMs = 0;
  }, 180_000);

  it('crawls the BC Transfer Guide for one --sender and answers bad flags with a usage error', async () => {
    const table = { TN_TABLE_NAME: `tn-crawl-cli-${ulid()}` };
    const run = ingest(['--source', 'bctransferguide', '--crawl', '--sender', 'LANG'], { ...env, ...table });
    expect((await run.exited).code, run.output()).toBe(0);
    expect(run.output()).toMatch(/bctransferguide crawl senders:LANG: complete/);
    expect(new Set(bctg.searches().map((s) => s.form.institutionCode))).toEqual(new Set(['LANG']));

    for (const [args, message] of [
      [['--source', 'ubc-grades', '--crawl'], /--crawl works for bctransferguide and sfu-outlines/],
      [['--source', 'sfu-outlines', '--crawl', '--term', 'Fall of 2026'], /--term must name an SFU term such as 2026\/fall/],
      [['--source', 'sfu-outlines', '--crawl', '--sender', 'LANG'], /--sender goes with --source bctransferguide/],
      [['--source', 'bctransferguide', '--crawl', '--file', 'x.json'], /give --file or --crawl, not both/],
    ] as const) {
      const bad = ingest([...args], { ...env, ...table });
      expect((await bad.exited).code, bad.output()).toBe(2);
      expect(bad.output()).toMatch(message);
      expect(bad.output()).not.toMatch(/\n\s+at /);
    }
    // A setting that cannot be used is named before anything starts.
    for (const [setting, message] of [
      [{ TN_BCTG_ORIGIN: 'ftp://www.bctransferguide.ca' }, /TN_BCTG_ORIGIN must be an http\(s\) origin such as https:\/\/www\.bctransferguide\.ca/],
      [{ TN_BCTG_API_ORIGIN: 'https://api.bctransferguide.ca/tcs' }, /TN_BCTG_API_ORIGIN must be an http\(s\) origin .*\(no path, no credentials\)/],
      [{ TN_CRAWL_TIMEOUT_MS: '-5' }, /TN_CRAWL_TIMEOUT_MS must be a positive integer \(milliseconds\), got "-5"/],
    ] as const) {
      const bad = ingest(['--source', 'bctransferguide', '--crawl'], { ...env, ...table, ...setting });
      expect((await bad.exited).code, bad.output()).toBe(2);
      expect(bad.output()).toMatch(message);
      expect(bad.output()).not.toMatch(/\n\s+at /);
    }
  }, 180_000);
});
