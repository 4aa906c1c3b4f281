import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, commandOf, descendantsOf, waitUntil } from '../support/server-process.js';

/** `npm start` as a user or a process manager runs it, until its banner. */
async function npmStart(dataDir: string): Promise<{ child: ChildProcess; output: () => string; url: string }> {
  // The sample catalog load is covered by the global setup and the ingestion tests; skipping it keeps this about the process lifecycle.
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: '0', TN_DATA_DIR: dataDir, TN_LOCAL_TOKEN: '', TN_DYNAMODB_ENDPOINT: '', TN_LOG_LEVEL: 'ERROR', TN_SAMPLE_CATALOG: 'off',
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible', TN_DEFAULT_LLM_MODEL: 'llama3.1', TN_DEFAULT_LLM_API_KEY: 'operator-secret-key-7781',
      TN_DEFAULT_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (data) => (output += data));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 90_000);
    child.stdout!.on('data', (data) => {
      output += data;
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match && output.includes('Press Ctrl-C')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
  return { child, output: () => output, url };
}

describe('npm start process', () => {
  it('starts DynamoDB Local, prints how to connect, serves, and stops everything when npm gets SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-start-'));
    const { child, output, url } = await npmStart(dataDir);
    const processes = descendantsOf(child.pid!);
    try {
      const token = /Local access token[^\n]*\n\s+(\S+)/.exec(output())![1]!;
      expect(output()).toContain('"mcpServers"');
      expect(output()).toContain(`${url}/mcp`);
      expect(output()).toContain('Tutor model:        openai-compatible llama3.1 at http://127.0.0.1:11434/v1');
      expect(output()).not.toContain('operator-secret-key-7781');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const quota = await fetch(`${url}/v1/tools/tn_user_quota`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
      expect(quota.status).toBe(200);
      expect(processes.map(commandOf).some((command) => command.startsWith('java'))).toBe(true);

      // A process manager or container signals only the main PID.
      child.kill('SIGTERM');
      expect(await waitUntil(() => processes.every((pid) => !alive(pid)), 20_000), processes.filter(alive).map(commandOf).join('\n')).toBe(true);
    } finally {
      for (const pid of [child.pid!, ...processes]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('restarts on the same data directory (DynamoDB Local starting while the server loads) and serves what the first run stored', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-start-'));
    const started: ChildProcess[] = [];
    const stop = async (child: ChildProcess) => {
      const processes = descendantsOf(child.pid!);
      child.kill('SIGTERM');
      expect(await waitUntil(() => [child.pid!, ...processes].every((pid) => !alive(pid)), 20_000)).toBe(true);
    };
    const call = (url: string, token: string, tool: string, body: unknown) =>
      fetch(`${url}/v1/tools/${tool}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const first = await npmStart(dataDir);
      started.push(first.child);
      const token = /Local access token[^\n]*\n\s+(\S+)/.exec(first.output())![1]!;
      expect((await call(first.url, token, 'tn_user_preferences_set', { theme: 'dark' })).status).toBe(200);
      await stop(first.child);

      const again = await npmStart(dataDir);
      started.push(again.child);
      // The token generated on the first start is kept in the data directory.
      expect(again.output()).toContain(token);
      const preferences = await (await call(again.url, token, 'tn_user_preferences_get', {})).json();
      expect(JSON.stringify(preferences)).toContain('"theme":"dark"');
      await stop(again.child);
    } finally {
      for (const child of started) for (const pid of [child.pid!, ...descendantsOf(child.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops DynamoDB Local and removes the staged copy when signalled during a first start', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-start-'));
    const child = spawn(process.execPath, ['bin/local-server.mjs'], {
      env: { ...process.env, PORT: '0', TN_DATA_DIR: dataDir, TN_LOCAL_TOKEN: 'signal-test-token', TN_DYNAMODB_ENDPOINT: '', TN_LOG_LEVEL: 'ERROR', TN_SAMPLE_CATALOG: 'core' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const staging = () => readdirSync('/dev/shm').filter((name) => name.startsWith(`tutor-nexus-first-load-${child.pid}-`));
    try {
      // The staged load is under way: its DynamoDB Local runs and its copy exists.
      expect(await waitUntil(() => descendantsOf(child.pid!).some((pid) => commandOf(pid).startsWith('java')) && staging().length > 0, 60_000)).toBe(true);
      const processes = descendantsOf(child.pid!);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await waitUntil(() => processes.every((pid) => !alive(pid)), 20_000), processes.filter(alive).map(commandOf).join('\n')).toBe(true);
      expect(staging()).toEqual([]);
    } finally {
      for (const pid of [child.pid!, ...descendantsOf(child.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server and DynamoDB Local when the process npm spawned gets %s, and exits 0', async (signal) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-start-'));
    const { child } = await npmStart(dataDir);
    const processes = descendantsOf(child.pid!);
    try {
      const spawned = descendantsOf(child.pid!).find((pid) => commandOf(pid).includes('local-server'))!;
      expect(spawned).toBeDefined();
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      process.kill(spawned, signal);
      expect(await exited).toBe(0);
      expect(await waitUntil(() => processes.every((pid) => !alive(pid)), 20_000), processes.filter(alive).map(commandOf).join('\n')).toBe(true);
    } finally {
      for (const pid of [child.pid!, ...processes]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
