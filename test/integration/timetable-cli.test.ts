import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coursesOf } from '../../cli/timetable-command.js';
import { tn } from '../support/cli-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'tn-timetable-'));
  env = { TN_URL: server.url, TN_CONFIG_DIR: dir };
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const COURSES = ['sfu:CMPT 225', 'sfu:MACM 201', 'sfu:MATH 232'];

describe('tn timetable', { timeout: 120_000 }, () => {
  it('prints the best week for unquoted codes, one row per meeting, as the tool ranks it', async () => {
    const run = await tn(['timetable', '--term', '2026-spring', '--institution', 'sfu', 'CMPT', '225', 'MACM', '201', 'MATH232'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Timetable 1 of \d+, 2026-spring: \d days on campus/);
    expect(run.stdout).toMatch(/^day +time +course +section +type +where/m);
    const best = (await server.rest('tn_course_timetable', { term: '2026-spring', courses: COURSES, limit: 1 }, null)).body.items[0];
    for (const m of best.meetings) {
      expect(run.stdout).toMatch(new RegExp(`${m.start}-${m.end} +${m.course.split(':')[1]} +${m.section} +${m.kind}`));
    }
    expect(run.stdout.match(/^\s*(Mo|Tu|We|Th|Fr)?\s+\d\d:\d\d-\d\d:\d\d /gm)).toHaveLength(best.meetings.length);
    expect(run.stdout).not.toContain('\u001b[');

    const second = await tn(['timetable', '--term', '2026-spring', ...COURSES, '--option', '2', '--json'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).items[1].rank).toBe(2);
  });

  it('saves the chosen week as an .ics file a calendar reads', async () => {
    const file = path.join(dir, 'spring.ics');
    const run = await tn(['timetable', '--term', '2026-spring', ...COURSES, '--option', '2', '--ics', file], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Saved .*spring\.ics: \d+ weekly events/);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('\r\n');
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    const second = (await server.rest('tn_course_timetable', { term: '2026-spring', courses: COURSES, limit: 2 }, null)).body.items[1];
    const taken = second.sections.map((s: { course: string; section: string }) => `${s.course.split(':')[1]} ${s.section}`);
    expect([...new Set(events.map((e) => e.summary.split(' ').slice(0, 3).join(' ')))].sort()).toEqual([...taken].sort());
  });

  it('names what stands in the way, and says what is wrong with the command', async () => {
    const friday = await tn(['timetable', '--term', '2026-spring', ...COURSES, '--days-off', 'fr'], env);
    expect(friday.code).toBe(0);
    expect(friday.stderr).toContain('No way to take MACM 201 fits Fridays off.');
    expect(friday.stdout).not.toMatch(/^\s*Fr /m);

    const unknown = await tn(['timetable', '--term', '2026-spring', 'sfu:CMPT 999'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^NOT_FOUND: .*CMPT 999/m);

    const noInstitution = await tn(['timetable', 'CMPT 225'], env);
    expect(noInstitution.code).toBe(2);
    expect(noInstitution.stderr).toContain('--institution');

    const junk = await tn(['timetable', '--institution', 'sfu', 'CMPT 225', 'banana'], env);
    expect(junk.code).toBe(2);
    expect(junk.stderr).toContain('"banana" is not a course code');
  });

  it('reads course codes however they are typed', () => {
    expect(coursesOf(['CMPT', '225', 'macm201,', 'sfu:MATH 232', 'langara:cpsc', '1150'])).toEqual(['CMPT 225', 'MACM 201', 'sfu:MATH 232', 'langara:CPSC 1150']);
    expect(coursesOf(['ED-D', '101', 'CMPT-225'])).toEqual(['ED-D 101', 'CMPT 225']);
  });
});
