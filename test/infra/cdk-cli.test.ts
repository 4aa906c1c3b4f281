import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/constructs/domain-function.js';
import { LAMBDA_BUNDLING } from '../../lib/constructs/lambda-bundling.js';
import { viewNames } from '../../web/views/build.js';

/**
 * `npx cdk synth` as an operator runs it. The CLI always hands the app an environment (a region, and
 * an account when it finds credentials), so the app builds an environment-specific stack, which the
 * in-process synthesis of stack.test.ts never sees: cdk-nag findings whose ids embed the account or
 * region only show up here.
 */
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'tn-cdk-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The operator's shell: no AWS settings but what each case names, and no credentials file to find. */
function operatorEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(AWS_|CDK_)/.test(name)) env[name] = value;
  }
  return {
    ...env,
    AWS_CONFIG_FILE: path.join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(scratch, 'no-aws-credentials'),
    // Offline: no instance metadata to wait for.
    AWS_EC2_METADATA_DISABLED: 'true',
    ...extra,
  };
}

async function synth(name: string, extra: Record<string, string>) {
  const out = path.join(scratch, name);
  const result = await run('npx', ['cdk', 'synth', '-q', '-o', out], { cwd: PROJECT_ROOT, env: operatorEnvironment(extra), maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}\n${stderr}` }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}\n${error.stderr ?? ''}` }),
  );
  return { ...result, out, template: () => readFileSync(path.join(out, 'TutorNexus.template.json'), 'utf8') };
}

describe('npx cdk synth from the CLI', () => {
  it.each<{ name: string; extra: Record<string, string>; region: string; account?: string }>([
    { name: 'no-account-or-region', extra: {}, region: 'us-east-1' },
    { name: 'account-and-region', extra: { AWS_REGION: 'ca-central-1', CDK_DEFAULT_ACCOUNT: '123456789012' }, region: 'ca-central-1', account: '123456789012' },
  ])('synthesizes with no cdk-nag error ($name)', async ({ name, extra, region, account }) => {
    const result = await synth(name, extra);
    expect(result.output).not.toMatch(/Synthesis finished with errors|\bERROR\b|AwsSolutions::/);
    expect(result.code, result.output.slice(-4000)).toBe(0);
    // The stack really was environment-specific: the CDK asset bucket is named with the literal region (and account).
    const template = result.template();
    expect(template).toContain(`-assets-${account ?? '${AWS::AccountId}'}-${region}`);
    // The functions that serve MCP Apps views carry every page beside their bundle, and no other function does.
    const functionAssets = readdirSync(result.out).filter((dir) => existsSync(path.join(result.out, dir, 'index.mjs')));
    const withViews = functionAssets.filter((dir) => existsSync(path.join(result.out, dir, 'views')));
    expect(withViews).toHaveLength(LAMBDA_BUNDLING.viewEntries.length);
    for (const dir of withViews) expect(readdirSync(path.join(result.out, dir, 'views')).sort()).toEqual(viewNames().map((name) => `${name}.html`));
    // Every function's cold start is index.mjs and its chunks; what some calls import waits in chunks/.
    expect(functionAssets.every((dir) => existsSync(path.join(result.out, dir, 'chunks')))).toBe(true);
  }, 240_000);
});

describe('cdk-nag acknowledgements', () => {
  it('never spell an environment value by hand (nagFinding renders it from the granted value)', () => {
    // nag-findings.ts itself explains the rendering with an example.
    const files = execFileSyncLines('git', ['ls-files', 'lib', 'bin']).filter((file) => file.endsWith('.ts') && !file.endsWith('nag-findings.ts'));
    const handWritten = files.filter((file) => /<AWS::(Region|AccountId|Partition|URLSuffix)>/.test(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')));
    expect(files.length).toBeGreaterThan(5);
    expect(handWritten).toEqual([]);
  });
});

function execFileSyncLines(command: string, args: string[]): string[] {
  return execFileSync(command, args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
}
