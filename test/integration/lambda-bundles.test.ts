import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { bundle, DOMAIN_ENTRIES, LAMBDA_HARNESS } from '../../bench/cold-start.js';

/**
 * What CDK deploys is an esbuild bundle, not the sources the other tests import: module order and
 * cycles can differ there (zod's classes were undefined at load once). Each entry is bundled as the
 * stack bundles it, loaded in a fresh process with the Lambda streaming runtime's globals, and asked
 * for one request.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tn-bundles-'));
  await writeFile(path.join(dir, 'harness.mjs'), LAMBDA_HARNESS);
});

function run(file: string, event: unknown, env: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, 'harness.mjs'), file, JSON.stringify(event)], {
      env: { PATH: process.env.PATH, TN_LOG_LEVEL: 'ERROR', POWERTOOLS_METRICS_DISABLED: 'true', TN_RUNTIME: 'local', TN_DATA_DIR: path.join(dir, 'data'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`exit ${code}: ${stderr.slice(-800)}`))));
  });
}

const event = (method: string, eventPath: string, body?: unknown) => ({
  httpMethod: method,
  path: eventPath,
  headers: { host: 'abc123.execute-api.us-west-2.amazonaws.com', 'content-type': 'application/json' },
  multiValueHeaders: {},
  body: body === undefined ? null : JSON.stringify(body),
  isBase64Encoded: false,
  requestContext: {},
});

describe('deployed bundles', () => {
  it.each(Object.entries(DOMAIN_ENTRIES))('%s: the bundle loads and answers', async (domain, entry) => {
    const file = await bundle(entry, dir);
    const answer = await run(file, event('POST', '/v1/tools/tn_tools_list', { domain: domain === 'router' ? 'course' : domain }), {});
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).tools.length).toBeGreaterThan(0);
  }, 60_000);

  it('oauth: the bundle loads and publishes its metadata', async () => {
    const file = await bundle('functions/oauth/handler.ts', dir);
    const base = 'https://abc123.execute-api.us-west-2.amazonaws.com/prod';
    const answer = await run(file, event('GET', '/.well-known/oauth-authorization-server'), {
      TN_OAUTH_ISSUER: base,
      TN_PUBLIC_BASE_URL: base,
      TN_OAUTH_SECRET: 'bundle-test-secret',
      TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).issuer).toBe(base);
  }, 60_000);
});
