import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** What a process prints for one tool call and one warning, with the logger chosen as its modules load. */
function printed(env: Record<string, string>): { stdout: string; stderr: string } {
  const script = `
    const { requestLogger } = await import('./functions/platform/observability.ts');
    const log = requestLogger({ requestId: '01JD0000000000000000000000', traceId: 'a'.repeat(32), tool: 'tn_course_search' });
    log.info('tool call', { outcome: 'success', executionTime: 12.4, cached: false });
    log.warn('search index not built', { error: 'timed out' });
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, TN_LOG_LEVEL: 'INFO', ...env },
    encoding: 'utf8',
  });
  return { stdout: result.stdout, stderr: result.stderr };
}

describe('log lines', () => {
  it('are one short line per tool call for a person at a terminal (TN_LOG_FORMAT=pretty)', () => {
    const { stdout, stderr } = printed({ TN_LOG_FORMAT: 'pretty' });
    expect(stdout.trim()).toMatch(/^\d\d:\d\d:\d\d tn_course_search ok 12 ms$/);
    expect(stderr.trim()).toMatch(/^\d\d:\d\d:\d\d WARN search index not built tool=tn_course_search error=timed out$/);
    expect(stdout).not.toContain('01JD0000000000000000000000');
  });

  it('stay Powertools JSON with the correlation ids by default, as in AWS', () => {
    const { stdout } = printed({ TN_LOG_FORMAT: 'json' });
    const [call] = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(call).toMatchObject({ level: 'INFO', message: 'tool call', tool: 'tn_course_search', requestId: '01JD0000000000000000000000', outcome: 'success' });
  });
});
