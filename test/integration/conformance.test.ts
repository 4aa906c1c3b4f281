import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const CONFORMANCE_BIN = path.resolve('node_modules/.bin/conformance');

let server: TestServer;
let workDir: string;
beforeAll(async () => {
  server = await startTestServer();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'tn-conformance-'));
});
afterAll(async () => {
  await server?.close();
  await rm(workDir, { recursive: true, force: true });
});

/**
 * The official MCP conformance suite, run as its CLI against the local server. The scenarios that read
 * the suite's own fixtures (`test://…` resources, `test_prompt_…` prompts, fixed tools) do not apply.
 */
describe('MCP conformance suite', () => {
  it.each(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list', 'prompts-list', 'completion-complete'])('passes %s', async (scenario) => {
    const { stdout } = await run(CONFORMANCE_BIN, ['server', '--url', `${server.url}/mcp`, '--scenario', scenario], {
      cwd: workDir,
      timeout: 60_000,
      env: process.env,
    });
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(stdout);
    expect(summary, stdout).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(summary![1]).toBe(summary![2]);
    expect(summary![3]).toBe('0');
  }, 90_000);
});
