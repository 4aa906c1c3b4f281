import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tn } from '../support/cli-process.js';
import { expectOk } from '../support/rest-expectations.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/** A server with no operator model: the CLI must say what the tutor is missing. */
let server: TestServer;
let configDir: string;
let env: Record<string, string>;
const started: { sessionId: string; question: string }[] = [];
let bobSession: string;

beforeAll(async () => {
  server = await startTestServer();
  // Sessions started elsewhere (the web app on a phone), each with a first question kept as a draft.
  for (const [i, question] of ['What is a pointer?', 'Why does my loop never stop?', 'How do I  read\na CSV file?'].entries()) {
    const { sessionId } = await expectOk(server, 'tn_session_start', { topic: `topic ${i}` });
    await expectOk(server, 'tn_session_ask', { sessionId, message: question, draft: true, clientEventId: `web-${i}`, deviceId: 'web-phone' });
    started.unshift({ sessionId, question: question.replace(/\s+/g, ' ') });
  }
  bobSession = (await expectOk(server, 'tn_session_start', { topic: 'bob' }, SECOND_TOKEN)).sessionId;
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  // A machine that has never used any of these sessions.
  configDir = await mkdtemp(path.join(os.tmpdir(), 'tn-sessions-'));
  env = { TN_URL: server.url, TN_TOKEN: TEST_TOKEN, TN_CONFIG_DIR: configDir };
  return () => rm(configDir, { recursive: true, force: true });
});

const rowsOf = (stdout: string) => stdout.split('\n').filter((line) => /\b[0-9A-HJKMNP-TV-Z]{26}\b/.test(line));

describe('tn sessions', { timeout: 120_000 }, () => {
  it("lists the account's sessions from every device on a new machine, latest activity first, the current one marked", async () => {
    const run = await tn(['sessions'], env);
    expect(run.code, run.stderr).toBe(0);
    const rows = rowsOf(run.stdout);
    expect(rows.map((row) => /([0-9A-Z]{26})/.exec(row)![1])).toEqual(started.map((s) => s.sessionId));
    expect(rows[0]).toMatch(new RegExp(`^\\* +${started[0]!.sessionId} +active +topic 2 +How do I read a CSV file\\? +1 +\\d{4}-`));
    for (const [i, row] of rows.entries()) expect(row).toContain(started[i]!.question);
    expect(rows.slice(1).every((row) => row.startsWith(' '))).toBe(true);
    expect(run.stdout).toMatch(/^ +session +status +about +first question +events +last activity$/m);
    expect(run.stdout).not.toContain(bobSession);
    // No key, no operator model: it says what to do, without naming a tool.
    expect(run.stderr).toContain('No model can answer you here yet: add your provider key');
    expect(run.stderr).not.toMatch(/tn_user_byok_add/);
  });

  it('pages with --limit, and --all follows every page; --json gives the same order', async () => {
    const two = await tn(['sessions', '--limit', '2'], env);
    expect(two.code, two.stderr).toBe(0);
    expect(rowsOf(two.stdout)).toHaveLength(2);
    expect(two.stdout).toContain('More sessions: tn sessions --all');
    const all = await tn(['sessions', '--limit', '2', '--all'], env);
    expect(rowsOf(all.stdout)).toHaveLength(3);
    expect(all.stdout).not.toContain('More sessions');
    const json = JSON.parse((await tn(['sessions', '--json'], env)).stdout);
    expect(json.current).toBe(started[0]!.sessionId);
    expect(json.signedIn).toBe(true);
    expect(json.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(started.map((s) => s.sessionId));
    expect(json.tutor).toEqual({ answeredBy: null, needs: 'provider-key' });
  });

  it("shows only another user's own sessions to them", async () => {
    const run = await tn(['sessions', '--json'], { ...env, TN_TOKEN: SECOND_TOKEN });
    expect(JSON.parse(run.stdout).sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([bobSession]);
  });

  it('without sign-in, says so and shows what this machine used', async () => {
    const run = await tn(['sessions'], { TN_URL: server.url, TN_CONFIG_DIR: configDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Not signed in');
    expect(run.stdout).toContain('No sessions yet');
    expect(run.stdout).not.toContain(started[0]!.sessionId);
  });

  it('tn ask with no model to answer keeps the question as a draft and says what is missing, naming no tool', async () => {
    const sessionId = started[1]!.sessionId;
    const run = await tn(['ask', '--session', sessionId, 'What does a segfault mean?'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No model can answer you here yet: add your provider key');
    expect(run.stderr).toContain(`Your question is kept as a draft in session ${sessionId}.`);
    expect(run.stderr).not.toMatch(/tn_\w+/);
    const status = await expectOk(server, 'tn_session_sync_status', { sessionId, deviceId: 'test-check' });
    expect(status.pendingDrafts.map((d: { content: string }) => d.content)).toContain('What does a segfault mean?');
  });

  it('says what is wrong with --limit', async () => {
    const run = await tn(['sessions', '--limit', '0'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--limit takes a whole number from 1 to 100');
  });
});
