import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binRange } from '../../functions/course/grade-bins.js';
import { samePerson } from '../../functions/course/instructor-names.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

const call = async (tool: string, input: unknown) => {
  const { status, body } = await server.rest(`tn_course_${tool}`, input, null);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
};

/** The courses a prerequisite tree names, anywhere in it. */
const codesIn = (node: any): string[] => (node.type === 'course' ? [node.code] : (node.children ?? []).flatMap(codesIn));

describe('what a course page reads from the course tools', () => {
  it('leadsTo lists the courses whose prerequisites name this one, each of which does', async () => {
    const cmpt225 = await call('prereqs', { course: 'sfu:CMPT 225' });
    expect(cmpt225.leadsTo.length).toBeGreaterThan(3);
    for (const next of cmpt225.leadsTo.slice(0, 8)) {
      expect(next.course).toBe(`sfu:${next.code}`);
      const theirs = await call('prereqs', { course: next.course });
      const named = `${theirs.text ?? ''} ${(await call('get', { course: next.course })).corequisitesText ?? ''}`;
      expect(codesIn(theirs.parsed.tree).includes('CMPT 225') || /CMPT 225/.test(named), next.code).toBe(true);
    }
  });

  it('a course known only from transfer rules says its prerequisites are unknown, never met', async () => {
    const rules = await call('equivalent_elsewhere', { course: 'langara:CPSC 1150', limit: 100 });
    const targets: string[] = rules.items.flatMap((e: any) => e.targets.map((t: any) => t.ref).filter(Boolean));
    let stubs = 0;
    for (const ref of targets) {
      const course = await call('get', { course: ref });
      if (course.knownFrom.includes('catalogue')) continue;
      stubs++;
      expect(course.knownFrom).toContain('transfer-rules');
      const prereqs = await call('prereqs', { course: ref, completed: [] });
      expect(prereqs.prerequisitesKnown).toBe(false);
      expect(prereqs.check.satisfied).toBe('unknown');
      expect(prereqs.check.status).toBe('not-known');
      expect(prereqs.check.verdict).not.toMatch(/meet|met\b/i);
    }
    expect(stubs).toBeGreaterThan(0);
    const catalogued = await call('prereqs', { course: 'sfu:CMPT 225', completed: [{ course: 'MACM 101' }] });
    expect(catalogued.prerequisitesKnown).toBe(true);
    expect(catalogued.check).toMatchObject({ status: 'not-met', gradesToConfirm: [{ course: 'MACM 101', minGrade: 'C-' }] });
    expect(catalogued.check.stillNeeded[0].courses).toContain('CMPT 125');
  });

  it('one instructor per person however the sources spelled them, with their grade averages', async () => {
    const { instructors } = await call('instructor', { course: 'ubc:CPSC 310' });
    for (const a of instructors) for (const b of instructors) if (a !== b) expect(samePerson(a.name, b.name), `${a.name} / ${b.name}`).toBe(false);
    const merged = instructors.filter((i: any) => i.spellings);
    expect(merged.length).toBeGreaterThan(0);
    for (const person of merged) {
      expect(person.spellings[0]).toBe(person.name);
      // The sections of every spelling are the person's.
      const byName = await call('grades', { course: 'ubc:CPSC 310', instructor: person.spellings.at(-1) });
      const spellings = new Set(byName.sections.flatMap((s: any) => s.instructors));
      for (const spelling of person.spellings) expect(spellings.has(spelling), spelling).toBe(true);
      expect(person.grades.sections).toBe(byName.sections.length);
    }
  });

  it('grade bins count each student once, PAIR rows included', async () => {
    const { sections } = await call('grades', { course: 'ubc:CPSC 110' });
    expect(sections.some((s: any) => s.format === 'pair')).toBe(true);
    for (const section of sections) {
      const ranges = section.bins.map((b: any) => binRange(b.label)).sort((a: number[], b: number[]) => a[0]! - b[0]!);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i][0], `${section.term} ${section.section}`).toBe(ranges[i - 1][1]);
    }
  });
});
