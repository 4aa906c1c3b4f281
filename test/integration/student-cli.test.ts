import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runTn, tn } from '../support/cli-process.js';
import { CookieBrowser } from '../support/oauth-browser.js';
import { TEST_TOKEN } from '../support/test-server.js';
import { startTutoringServer, type TutoringFixture } from '../support/tutoring-fixture.js';

const OPENAI_KEY = 'sk-proj-CLIsecretSECRETsecret0042';

let fixture: TutoringFixture;
let configDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  fixture = await startTutoringServer({ prefix: 'cli', openaiKey: OPENAI_KEY });
});
afterAll(async () => {
  await fixture?.close();
});
beforeEach(async () => {
  fixture.provider.reset();
  // Each test is a fresh machine: its own config dir (device id, token file, mirrors).
  configDir = await mkdtemp(path.join(os.tmpdir(), 'tn-cli-'));
  env = { TN_URL: fixture.server.url, TN_TOKEN: TEST_TOKEN, TN_CONFIG_DIR: configDir };
  return () => rm(configDir, { recursive: true, force: true });
});

async function startSession(course = 'sfu:CMPT 120'): Promise<string> {
  const started = await fixture.server.rest('tn_session_start', { course });
  expect(started.status).toBe(200);
  return started.body.sessionId;
}

describe('tn ask', { timeout: 120_000 }, () => {
  it('streams the answer to stdout in pieces and names the session on stderr', async () => {
    const answer = 'Think about what repeats. What changes each time round the loop? Try one.';
    fixture.provider.enqueue({ text: answer, chunks: 6, chunkDelayMs: 150 });
    const run = await tn(['ask', '--course', 'sfu:CMPT 120', 'How do loops work?'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(answer);
    expect(run.chunks.filter((c) => c.trim()).length).toBeGreaterThanOrEqual(3);
    const sessionId = /session (\w{26})/.exec(run.stderr)![1]!;
    expect(run.stdout).not.toContain(sessionId);

    // The next ask without --session continues the current session.
    const again = await tn(['ask', 'And while loops?'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('Tutor says: And while loops?');
    expect(again.stderr).toContain(`session ${sessionId}`);

    const history = await tn(['history', sessionId], env);
    expect(history.code).toBe(0);
    expect(history.stdout).toContain('How do loops work?');
    expect(history.stdout).toContain(answer);
    expect(history.stdout).toMatch(/^#4 tutor \(cli-[\w.-]+\): Tutor says: And while loops\?$/m);
    const json = JSON.parse((await tn(['history', sessionId, '--json'], env)).stdout);
    expect(json.events.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3, 4]);

    const sessions = await tn(['sessions'], env);
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toMatch(new RegExp(`\\* +${sessionId} +active +sfu:CMPT 120`));
  });

  it('prints the tool output with --json', async () => {
    const sessionId = await startSession();
    const run = await tn(['ask', '--session', sessionId, '--json', 'What is a variable?'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sessionId, status: 'answered', response: 'Tutor says: What is a variable?' });
  });
});

describe('drafts, export, import and end', { timeout: 120_000 }, () => {
  it('saves a draft, cancels it, round-trips a snapshot and ends the session', async () => {
    const sessionId = await startSession();
    const draft = await tn(['draft', '--session', sessionId, 'half a thought'], env);
    expect(draft.code, draft.stderr).toBe(0);
    const resumed = await fixture.server.rest('tn_session_resume', { sessionId });
    expect(resumed.body.pendingDrafts.map((d: { content: string }) => d.content)).toEqual(['half a thought']);

    const cancel = await tn(['cancel', '--session', sessionId], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain('half a thought');
    expect((await fixture.server.rest('tn_session_resume', { sessionId })).body.pendingDrafts).toEqual([]);

    const exported = await tn(['export', sessionId], env);
    expect(exported.code, exported.stderr).toBe(0);
    const snapshot = JSON.parse(exported.stdout);
    expect(snapshot.session.sessionId).toBe(sessionId);
    const file = path.join(configDir, 'snapshot.json');
    await writeFile(file, exported.stdout);
    const imported = await tn(['import', file], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Already present: session ${sessionId}`);

    const ended = await tn(['end', sessionId], env);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toContain(`Session ${sessionId} ended`);
    const refused = await tn(['ask', '--session', sessionId, 'still there?'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^(CONFLICT|UNPROCESSABLE_ENTITY|BAD_REQUEST|NOT_FOUND): .+/m);
  });
});

describe('catalog and transfer commands', { timeout: 120_000 }, () => {
  it('prints readable tables, and the tool output with --json', async () => {
    const search = await tn(['search', 'data structures', '--institution', 'sfu'], env);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toMatch(/^course +title +credits +score/m);
    expect(search.stdout).toContain('sfu:CMPT 225');
    const searchJson = JSON.parse((await tn(['search', 'data structures', '--institution', 'sfu', '--json'], env)).stdout);
    expect(searchJson.items.some((h: { ref: string }) => h.ref === 'sfu:CMPT 225')).toBe(true);
    // A term keeps what is offered then, passed through as the server reads it; a term it cannot read is refused.
    const inSpring = JSON.parse((await tn(['search', 'programming', '--institution', 'sfu', '--term', 'Spring 2026', '--json'], env)).stdout);
    const allTerms = JSON.parse((await tn(['search', 'programming', '--institution', 'sfu', '--limit', '100', '--json'], env)).stdout);
    expect(inSpring.items.length).toBeGreaterThan(0);
    expect(inSpring.items.every((h: { ref: string }) => allTerms.items.some((a: { ref: string }) => a.ref === h.ref))).toBe(true);
    expect((await tn(['search', 'programming', '--term', 'someday'], env)).code).not.toBe(0);

    const course = await tn(['course', 'sfu:CMPT', '225'], env);
    expect(course.code, course.stderr).toBe(0);
    expect(course.stdout).toMatch(/^course +sfu:CMPT 225$/m);
    expect(JSON.parse((await tn(['course', 'sfu:CMPT 225', '--json'], env)).stdout).ref).toBe('sfu:CMPT 225');

    const transfer = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC 1160', 'CPSC 1181'], env);
    expect(transfer.code, transfer.stderr).toBe(0);
    expect(transfer.stdout).toMatch(/^match +courses +earns/m);
    expect(transfer.stdout).toContain('Best plan:');
    const transferJson = JSON.parse((await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC 1160', 'CPSC 1181', '--json'], env)).stdout);
    expect(transferJson).toHaveProperty('exactMatches');
    expect(transfer.stdout).not.toContain('\u001b[');

    // Compare ranks on one credit scale: UVic's units are shown as awarded and counted double.
    const courses = ['CPSC 1150', 'MATH 1171', 'ENGL 1127', 'PSYC 1115'];
    const compared = await tn(['compare', '--from', 'Langara College', ...courses, '--as-of', '2023-11-01'], env);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toMatch(/^receiver +planned +common scale +transfers +lost/m);
    expect(compared.stdout).toMatch(/^University of Victoria +6 units +12 /m);
    expect(compared.stdout).toContain('uvic: UVic awards units');
    const comparedJson = JSON.parse((await tn(['compare', '--from', 'langara', ...courses, '--to', 'uvic', '--to', 'sfu', '--as-of', '2023-11-01', '--json'], env)).stdout);
    expect(comparedJson.receivers.map((r: { normalizedCredits: number }) => r.normalizedCredits)).toEqual([12, 12]);
    // A course resolves against the agreement in force when it was completed.
    const then = JSON.parse((await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'POLI 1250', '--completed-on', 'POLI 1250=2010-12', '--as-of', '2025-01-01', '--json'], env)).stdout);
    expect(then.exactMatches.map((m: { targets: { code?: string }[] }) => m.targets[0]!.code)).toEqual(['POL 231']);
    expect((await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'POLI 1250', '--completed-on', 'POLI 1250'], env)).code).toBe(2);
  });

  it('reads course codes typed without quotes, carries a subject to bare numbers, and names a word it cannot read', async () => {
    const quoted = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC 1150', 'MATH 1171', '--json'], env);
    const unquoted = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC', '1150', 'MATH', '1171', '--json'], env);
    expect(unquoted.code, unquoted.stderr).toBe(0);
    expect(JSON.parse(unquoted.stdout)).toEqual(JSON.parse(quoted.stdout));
    const carried = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC', '1160', '1181', '--json'], env);
    const both = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC 1160', 'CPSC 1181', '--json'], env);
    expect(JSON.parse(carried.stdout)).toEqual(JSON.parse(both.stdout));
    const unreadable = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'CPSC', '1150', 'calculus'], env);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/^usage: Could not read "calculus" as a course code/m);
    // Compare and --completed-on read codes the same way.
    const comparedQuoted = await tn(['compare', '--from', 'langara', 'CPSC 1150', 'MATH 1171', '--as-of', '2023-11-01', '--json'], env);
    const comparedUnquoted = await tn(['compare', '--from', 'langara', 'cpsc1150', 'MATH', '1171', '--as-of', '2023-11-01', '--json'], env);
    expect(comparedUnquoted.code, comparedUnquoted.stderr).toBe(0);
    expect(JSON.parse(comparedUnquoted.stdout)).toEqual(JSON.parse(comparedQuoted.stdout));
    const thenQuoted = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'POLI 1250', '--completed-on', 'POLI 1250=2010-12', '--as-of', '2025-01-01', '--json'], env);
    const thenUnquoted = await tn(['transfer', '--from', 'langara', '--to', 'sfu', 'POLI', '1250', '--completed-on', 'POLI', '1250=2010-12', '--as-of', '2025-01-01', '--json'], env);
    expect(thenUnquoted.code, thenUnquoted.stderr).toBe(0);
    expect(JSON.parse(thenUnquoted.stdout)).toEqual(JSON.parse(thenQuoted.stdout));
  });

  it('shows a course with its grades across terms, its sections, and checks its prerequisites against courses typed unquoted', async () => {
    const grades = await tn(['course', 'ubc:CPSC', '110'], env);
    expect(grades.code, grades.stderr).toBe(0);
    expect(grades.stdout).toMatch(/^Grades: average \d+\.\d over \d+ sections, \d+ students/m);
    expect(grades.stdout).toMatch(/^term +sections +students +average +median$/m);
    expect(grades.stdout.match(/^20\d\d-[a-z]+ +\d+ +\d+ +\d+\.\d/gm)?.length ?? 0, grades.stdout).toBeGreaterThanOrEqual(2);

    const sections = await tn(['course', 'sfu', 'CMPT', '225'], env);
    expect(sections.code, sections.stderr).toBe(0);
    expect(sections.stdout).toMatch(/^course +sfu:CMPT 225$/m);
    expect(sections.stdout).toMatch(/^Sections, 20\d\d-(spring|summer|fall)/m);
    expect(sections.stdout).toMatch(/^section +type +days +time +instructor +seats$/m);
    expect(sections.stdout).toMatch(/^D1\d\d +LEC/m);
    expect(sections.stdout).toContain('Check the prerequisites: tn course sfu:CMPT 225 --done');

    // The check prints the server's one-sentence verdict, then what is missing as a list of its own.
    const met = await tn(['course', 'sfu:CMPT 225', '--done', 'CMPT', '125', 'B', 'MACM', '101', 'B+'], env);
    expect(met.code, met.stderr).toBe(0);
    expect(met.stdout).toMatch(/^Prerequisites \(with CMPT 125 B, MACM 101 B\+\): You meet these prerequisites\.$/m);
    expect(met.stdout).not.toContain('Still needed');
    const noGrades = await tn(['course', 'sfu:CMPT 225', '--done', 'CMPT', '125', 'MACM', '101'], env);
    expect(noGrades.stdout).toMatch(/^Prerequisites \(with CMPT 125, MACM 101\): Met if your grades are at least C- in (CMPT 125 and MACM 101|MACM 101 and CMPT 125)\.$/m);
    const toConfirm = /^Grades to confirm:\n((?: {2}- .*\n)+)/m.exec(noGrades.stdout)?.[1];
    expect(toConfirm?.trim().split('\n').map((line) => line.trim()).sort()).toEqual(['- CMPT 125: C- or better', '- MACM 101: C- or better']);
    expect(noGrades.stdout).not.toMatch(/cannot be confirmed|not confirmed/);
    expect(noGrades.stdout).toContain('Add a grade after each course to confirm, e.g. --done CMPT 125 B');
    const missing = await tn(['course', 'sfu:CMPT 225', '--done', 'MACM', '101', 'A'], env);
    const verdict = /^Prerequisites \(with MACM 101 A\): (.+)$/m.exec(missing.stdout)?.[1];
    expect(verdict, missing.stdout).toMatch(/^Not met yet: /);
    expect(verdict!.length).toBeLessThanOrEqual(160);
    expect(verdict).not.toMatch(/\([^)]*\(/);
    expect(missing.stdout).toMatch(/^Still needed:\n {2}- [^\n]*CMPT 125/m);
    expect(missing.stdout).not.toMatch(/^ {2}- [^\n]*MACM 101/m);
    const json = JSON.parse((await tn(['course', 'sfu:CMPT 225', '--term', '2025-fall', '--done', 'MACM 101 A', '--json'], env)).stdout);
    expect(json.ref).toBe('sfu:CMPT 225');
    expect(json.prerequisiteCheck.satisfied).toBe(false);
    expect(json.sections.length).toBeGreaterThan(0);
    expect(json.sections.every((s: { term: string }) => s.term === '2025-fall')).toBe(true);

    const noCourses = await tn(['course', 'sfu:CMPT 225', '--done'], env);
    expect(noCourses.code).toBe(2);
    expect(noCourses.stderr).toContain('--done needs the courses you have completed');
  });

  it('says a command it does not know is unknown, with the nearest one it knows, without the whole help', async () => {
    const typo = await tn(['serach', 'calculus'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('tn: unknown command "serach". Did you mean "tn search"? Run tn help for the commands.\n');
    const unknown = await tn(['frobnicate'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('tn: unknown command "frobnicate". Run tn help for the commands.\n');
    const help = await tn(['help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tn search words');
    expect(help.stdout).toContain('tn compare --from');
    const bare = await tn([], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('tn search words');
  });

  it('reports errors as the code and message on stderr with a non-zero exit code', async () => {
    const missing = await tn(['course', 'sfu:ZZZZ 999'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^NOT_FOUND: .+/m);
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    const badToken = await tn(['ask', 'hello'], { ...env, TN_TOKEN: 'not-a-token' });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toMatch(/^UNAUTHORIZED: /m);

    const usage = await tn(['transfer', 'CPSC 1160'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('tn transfer --from');
  });
});

describe('tn login', { timeout: 120_000 }, () => {
  it('keeps a checked token in a 0600 file and uses it, never printing it', async () => {
    const bare = { TN_URL: fixture.server.url, TN_CONFIG_DIR: configDir };
    const login = await tn(['login', '--token-stdin'], bare, { stdin: `${TEST_TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout + login.stderr).not.toContain(TEST_TOKEN);
    const file = path.join(configDir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).token).toBe(TEST_TOKEN);
    const sessionId = await startSession();
    const history = await tn(['history', sessionId, '--json'], { TN_CONFIG_DIR: configDir });
    expect(history.code, history.stderr).toBe(0);

    const refused = await tn(['login', '--token', 'wrong-token-0000'], bare);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^UNAUTHORIZED: /m);
  });

  it('signs in through the OAuth authorization server with a loopback redirect, then calls with the tokens it keeps', async () => {
    const login = runTn(['login', '--no-browser'], { TN_URL: fixture.server.url, TN_CONFIG_DIR: configDir });
    try {
      await login.waitFor(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+$/m, 60_000, 'stderr');
      const authorizeUrl = /^(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)$/m.exec(login.stderr())![1]!;
      const browser = new CookieBrowser();
      const origin = fixture.server.url;
      const signIn = await browser.navigate(authorizeUrl, origin);
      const consent = await browser.submit(signIn.url, await signIn.response.text(), { token: TEST_TOKEN }, origin);
      const consentHtml = await consent.response.text();
      expect(consentHtml).toContain('Tutor Nexus CLI');
      const done = await browser.submit(consent.url, consentHtml, { decision: 'allow' }, origin);
      expect(done.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?.*code=/);
      expect((await fetch(done.url)).status).toBe(200);
      expect(await login.exited).toBe(0);
    } finally {
      login.child.kill('SIGKILL');
    }
    const file = path.join(configDir, 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.oauth.tokens.access_token).toBeTruthy();
    expect(login.stdout() + login.stderr()).not.toContain(saved.oauth.tokens.access_token);
    const sessionId = await startSession();
    const history = await tn(['history', sessionId, '--json'], { TN_CONFIG_DIR: configDir, TN_URL: fixture.server.url });
    expect(history.code, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout).sessionId).toBe(sessionId);
  });
});

describe('tn sync --watch', { timeout: 120_000 }, () => {
  it('prints another device\'s message within 5 s (plus slack), mirrors the session, and exits 0 on Ctrl-C', async () => {
    const sessionId = await startSession();
    const daemon = runTn(['sync', '--watch', '--session', sessionId], env);
    try {
      await daemon.waitFor('Watching 1 session', 60_000, 'stderr');
      // Let the first poll settle so the next message is new to this device.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = await fixture.server.rest('tn_session_ask', { sessionId, message: 'Typed on my phone', deviceId: 'web-phone' });
      expect(sent.status).toBe(200);
      const sentAt = Date.now();
      await daemon.waitFor('Tutor says: Typed on my phone', 20_000);
      expect(Date.now() - sentAt).toBeLessThan(5_000 + 3_000);
      expect(daemon.stdout()).toMatch(/#1 you \(web-phone\): Typed on my phone/);

      const mirror = path.join(configDir, 'sessions', `${sessionId}.md`);
      await expect.poll(async () => readFile(mirror, 'utf8').catch(() => ''), { timeout: 15_000 }).toContain('Tutor says: Typed on my phone');
      expect(await readFile(mirror, 'utf8')).toMatch(/^### 1 · student · web-phone · /m);

      daemon.child.kill('SIGINT');
      expect(await daemon.exited).toBe(0);
      expect(daemon.stderr()).toContain('Stopped.');
    } finally {
      daemon.child.kill('SIGKILL');
    }
  });

  it('says it retries when the server cannot be reached, and still exits 0 on Ctrl-C', async () => {
    const closed = await freePort();
    const daemon = runTn(['sync', '--watch'], { ...env, TN_URL: `http://127.0.0.1:${closed}` });
    try {
      await daemon.waitFor(/Connection lost: Cannot reach .*Retrying in 1 s/, 30_000, 'stderr');
      daemon.child.kill('SIGINT');
      expect(await daemon.exited).toBe(0);
    } finally {
      daemon.child.kill('SIGKILL');
    }
  });

  it('says the connection was lost when the server goes away, and reconnects when it is back', async () => {
    const sessionId = await startSession();
    const target = new URL(fixture.server.url);
    const proxy = await tcpProxy(Number(target.port));
    const daemon = runTn(['sync', '--watch', '--session', sessionId], { ...env, TN_URL: `http://127.0.0.1:${proxy.port}` });
    try {
      await daemon.waitFor('Watching 1 session', 60_000, 'stderr');
      await proxy.stop();
      await daemon.waitFor(/Connection lost: .*Retrying in/, 30_000, 'stderr');
      await proxy.start();
      await daemon.waitFor(`Reconnected to http://127.0.0.1:${proxy.port}`, 60_000, 'stderr');
      await fixture.server.rest('tn_session_ask', { sessionId, message: 'Back online?', deviceId: 'web' });
      await daemon.waitFor('Tutor says: Back online?', 30_000);
      daemon.child.kill('SIGINT');
      expect(await daemon.exited).toBe(0);
    } finally {
      daemon.child.kill('SIGKILL');
      await proxy.stop();
    }
  });

  it('pushes a draft queued while the server was unreachable', async () => {
    const sessionId = await startSession();
    const closed = await freePort();
    const offline = await tn(['draft', '--session', sessionId, 'written on the train'], { ...env, TN_URL: `http://127.0.0.1:${closed}` });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toContain('kept on this machine');
    const once = await tn(['sync', '--session', sessionId], env);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stderr).toContain('Pushed draft');
    const resumed = await fixture.server.rest('tn_session_resume', { sessionId });
    expect(resumed.body.pendingDrafts.map((d: { content: string }) => d.content)).toEqual(['written on the train']);
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP proxy to the server that can be stopped (dropping every connection) and started again on the same port. */
async function tcpProxy(targetPort: number): Promise<{ port: number; stop(): Promise<void>; start(): Promise<void> }> {
  let server: Server | undefined;
  let port = 0;
  const sockets = new Set<Socket>();
  const start = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  await start();
  return {
    port,
    start,
    async stop() {
      if (!server) return;
      const closing = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => closing.close(resolve));
    },
  };
}
