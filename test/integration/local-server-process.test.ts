import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function javaProcessesFor(dataDir: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** `npm start` as a user runs it: its own DynamoDB Local, the banner, and Ctrl-C leaving no orphans. */
describe('npm start process', () => {
  it('starts DynamoDB Local, prints how to connect, serves, and stops everything on SIGINT', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-start-'));
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['bin/local-server.ts'], {
      // The sample catalog load is covered by the global setup and the ingestion tests; skipping it here keeps
      // this test about the process lifecycle.
      env: { ...process.env, PORT: '0', TN_DATA_DIR: dataDir, TN_LOCAL_TOKEN: '', TN_DYNAMODB_ENDPOINT: '', TN_LOG_LEVEL: 'ERROR', TN_SAMPLE_CATALOG: 'off',
        TN_DEFAULT_LLM_PROVIDER: 'openai-compatible', TN_DEFAULT_LLM_MODEL: 'llama3.1', TN_DEFAULT_LLM_API_KEY: 'operator-secret-key-7781',
        TN_DEFAULT_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 90_000);
        child.stdout.on('data', (data) => {
          output += data;
          const match = /running at (http:\/\/\S+)/.exec(output);
          if (match && output.includes('Press Ctrl-C')) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.stderr.on('data', (data) => (output += data));
        child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
      });
      const token = /Local access token[^\n]*\n\s+(\S+)/.exec(output)![1]!;
      expect(output).toContain('"mcpServers"');
      expect(output).toContain(`${url}/mcp`);
      expect(output).toContain('Tutor model:        openai-compatible llama3.1 at http://127.0.0.1:11434/v1');
      expect(output).not.toContain('operator-secret-key-7781');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const quota = await fetch(`${url}/v1/tools/tn_user_quota`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
      expect(quota.status).toBe(200);
      expect(javaProcessesFor(dataDir).length).toBeGreaterThan(0);

      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(javaProcessesFor(dataDir)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
