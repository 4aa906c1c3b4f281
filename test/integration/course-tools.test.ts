import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

const call = (tool: string, input: unknown) => server.rest(`tn_course_${tool}`, input, null);

describe('course catalog tools on the shipped sample data', () => {
  it('ranks SFU CMPT 225 first for "data structures" at sfu, and filters by subject and level', async () => {
    const { body } = await call('search', { query: 'data structures', institution: 'sfu' });
    expect(body.items[0].ref).toBe('sfu:CMPT 225');
    expect(body.items.every((i: any) => i.institution === 'sfu')).toBe(true);
    const level3 = await call('search', { query: 'data structures', institution: 'SFU', level: 3 });
    expect(level3.body.items[0].ref).toBe('sfu:CMPT 307');
    const langara = await call('search', { query: 'programming', institution: 'LANG', subject: 'cpsc' });
    expect(langara.body.items.length).toBeGreaterThan(0);
    expect(langara.body.items.every((i: any) => i.ref.startsWith('langara:CPSC '))).toBe(true);
  });

  it('keeps to courses offered in a term: the same ranking without the courses not offered then', async () => {
    const everyPage = async (input: Record<string, unknown>) => {
      const refs: string[] = [];
      let cursor: string | undefined;
      do {
        const { body } = await call('search', { ...input, limit: 100, ...(cursor ? { cursor } : {}) });
        refs.push(...body.items.map((i: any) => i.ref));
        cursor = body.nextCursor ?? undefined;
      } while (cursor);
      return refs;
    };
    const all = await everyPage({ query: 'programming', institution: 'sfu' });
    const spring = await everyPage({ query: 'programming', institution: 'sfu', term: 'Spring 2026' });
    expect(spring.length).toBeGreaterThan(0);
    // What tn_course_get says of each course's terms (its offerings and sections) decides what the filter keeps.
    const offered = await Promise.all(all.map(async (ref) => ((await call('get', { course: ref })).body.offeredTerms as string[]).includes('2026-spring')));
    expect(spring).toEqual(all.filter((_, i) => offered[i]));
    expect(spring.length).toBeLessThan(all.length);
    expect((await call('search', { query: 'programming', term: '1999-fall' })).body.items).toEqual([]);
    expect((await call('search', { query: 'programming', term: 'someday' })).status).toBe(400);
  });

  it('finds a course by its code, loosely typed', async () => {
    const { body } = await call('search', { query: 'cmpt225' });
    expect(body.items[0].ref).toBe('sfu:CMPT 225');
  });

  it('pages search results with cursors bound to the query', async () => {
    const first = await call('search', { query: 'calculus', limit: 3 });
    expect(first.body.items).toHaveLength(3);
    const second = await call('search', { query: 'calculus', limit: 3, cursor: first.body.nextCursor });
    expect(second.body.items[0].ref).not.toBe(first.body.items[0].ref);
    const foreign = await call('search', { query: 'algebra', limit: 3, cursor: first.body.nextCursor });
    expect(foreign.status).toBe(400);
  });

  it('gets a course with provenance, and answers unknown ones with close matches', async () => {
    const { body } = await call('get', { course: 'SFU:cmpt225' });
    expect(body).toMatchObject({ ref: 'sfu:CMPT 225', title: 'Data Structures and Programming', credits: 3, level: 2 });
    expect(body.prerequisitesText).toContain('MACM 101');
    expect(body.sectionTerms).toEqual(['2026-spring', '2025-fall']);
    expect(body.sources[0]).toMatchObject({ source: 'sfu-outlines', sourceRecordId: 'CMPT 225' });
    const missing = await call('get', { course: 'sfu:CMPT 226' });
    expect(missing.status).toBe(404);
    expect(missing.body.details.hints[0]).toContain('sfu:CMPT 225');
    expect((await call('get', { course: 'CMPT 225' })).status).toBe(400);
  });

  it('merges a Langara course from its catalogue, attribute and prerequisite sources', async () => {
    const { body } = await call('get', { course: 'LANG:CPSC 1181' });
    expect(body.title).toBeTruthy();
    expect(body.attributes).toContain('UT');
    expect(body.prerequisitesText).toBeTruthy();
    expect(body.sources.map((s: any) => s.source).sort()).toEqual(['langara-attributes', 'langara-catalogue', 'langara-prereqs']);
  });

  it('lists offerings by term and sections with meeting times, accepting term aliases', async () => {
    const schedule = await call('schedule', { course: 'sfu:CMPT 225' });
    const fall = schedule.body.items.find((t: any) => t.term === '2025-fall');
    expect(fall.sectionCount).toBeGreaterThan(0);
    expect(fall.campuses).toContain('Burnaby');
    const canonical = await call('section_list', { course: 'sfu:CMPT 225', term: '2025-fall', limit: 100 });
    const alias = await call('section_list', { course: 'sfu:CMPT 225', term: 'Fall 2025', limit: 100 });
    expect(alias.body).toEqual(canonical.body);
    const d100 = canonical.body.items.find((s: any) => s.section === 'D100');
    expect(d100.meetings[0]).toMatchObject({ type: 'LEC', startTime: expect.stringMatching(/^\d\d:\d\d$/) });
    const one = await call('section_get', { course: 'sfu:CMPT 225', term: '2025-fall', section: 'd100' });
    expect(one.body.section).toBe('D100');
    const langara = await call('section_list', { course: 'langara:CPSC 1150', term: '202330' });
    expect(langara.body.items[0]).toMatchObject({ term: '2023-fall', seats: { status: expect.any(String) } });
    const unknown = await call('section_get', { course: 'sfu:CMPT 225', term: '2025-fall', section: 'Z999' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.details.hints[0]).toContain('D100');
  });

  it('reports grade distributions with a summary, per term and per instructor', async () => {
    const all = await call('grades', { course: 'ubc:CPSC 110' });
    expect(all.body.summary.sections).toBeGreaterThan(10);
    expect(all.body.summary.terms).toEqual(expect.arrayContaining(['2024-winter', '2025-winter', '2021-winter', '2015-winter']));
    expect(all.body.summary.weightedAverage).toBeGreaterThan(50);
    const section = all.body.sections.find((s: any) => s.term === '2024-winter');
    expect(section.bins.length).toBe(11);
    const pair = all.body.sections.find((s: any) => s.format === 'pair');
    expect(pair.instructors[0]).not.toContain(',');
    const oneTerm = await call('grades', { course: 'ubc:CPSC 110', term: '2024W' });
    expect(oneTerm.body.sections.every((s: any) => s.term === '2024-winter')).toBe(true);
    const byInstructor = await call('grades', { course: 'ubc:CPSC 110', instructor: section.instructors[0].split(' ')[0] });
    expect(byInstructor.body.sections.length).toBeGreaterThan(0);
    expect(byInstructor.body.sections.length).toBeLessThan(all.body.sections.length);
  });

  it('lists instructors with terms, sections and grade averages where grade data exists', async () => {
    const ubc = await call('instructor', { course: 'ubc:CPSC 110' });
    expect(ubc.body.instructors.some((i: any) => i.grades?.weightedAverage > 0)).toBe(true);
    const sfu = await call('instructor', { course: 'sfu:CMPT 225' });
    expect(sfu.body.instructors.length).toBeGreaterThan(0);
    expect(sfu.body.instructors.every((i: any) => i.grades === null)).toBe(true);
  });

  it('returns similar courses at the same institution, never the course itself', async () => {
    const { body } = await call('similar', { course: 'sfu:CMPT 225', limit: 10 });
    expect(body.items.length).toBe(10);
    expect(body.items.map((i: any) => i.ref)).not.toContain('sfu:CMPT 225');
    expect(body.items.every((i: any) => i.ref.startsWith('sfu:'))).toBe(true);
  });

  it('lists institutions with per-source freshness', async () => {
    const { body } = await call('institutions', { limit: 100 });
    const ids = body.items.map((i: any) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['sfu', 'ubc', 'ubco', 'langara']));
    const sfu = body.items.find((i: any) => i.id === 'sfu');
    expect(sfu.sources.map((s: any) => s.source).sort()).toEqual(['bctransferguide', 'sfu-outlines', 'sfu-sections']);
    expect(Date.parse(sfu.lastIngestedAt)).toBeLessThanOrEqual(Date.now());
    // Known by name (BC Transfer Guide code DOUG) before any catalog data covers it.
    expect(body.items.find((i: any) => i.id === 'douglas')).toMatchObject({ bctgCode: 'DOUG', sources: [], lastIngestedAt: null });
    // Named only by transfer rules (Alexander College sends to Yorkville University).
    expect(body.items.find((i: any) => i.id === 'yorkville')?.sources.map((s: any) => s.source)).toEqual(['bctransferguide']);
    expect(ids.indexOf('sfu')).toBeLessThan(ids.indexOf('douglas'));
  });

  it('answers outline and materials honestly when the source has nothing', async () => {
    const outline = await call('outline', { course: 'sfu:CMPT 225', term: '2025-fall' });
    expect(outline.body).toMatchObject({ term: '2025-fall', grading: null, texts: [], designation: expect.any(String) });
    expect(outline.body.missing).toContain('grading');
    const materials = await call('materials', { course: 'sfu:CMPT 225' });
    expect(materials.body).toMatchObject({ items: [], hasMore: false });
  });

  it('lists transfer equivalents in both directions from the ingested BC Transfer Guide rules', async () => {
    const outgoing = await call('equivalent_elsewhere', { course: 'langara:CPSC 1160', otherInstitution: 'SFU', limit: 100 });
    const bundle = outgoing.body.items.find((e: any) => e.sourceCourses.length === 2);
    expect(bundle.sourceCourses).toEqual(['langara:CPSC 1160', 'langara:CPSC 1181']);
    expect(bundle.targets.map((t: any) => t.kind)).toEqual(expect.arrayContaining(['course', 'generic']));
    expect(bundle.evidence[0].url).toContain('bctransferguide.ca');
    // Rules that ended before the date are not in force then; the historic CMPT 212 rule was.
    const in2010 = await call('equivalent_elsewhere', { course: 'langara:CPSC 1160', otherInstitution: 'sfu', asOfDate: '2010-01-01', limit: 100 });
    expect(in2010.body.items.some((e: any) => e.targets.some((t: any) => t.ref === 'sfu:CMPT 212'))).toBe(true);
    expect(outgoing.body.items.some((e: any) => e.targets.some((t: any) => t.ref === 'sfu:CMPT 212'))).toBe(false);
    const incoming = await call('equivalent_elsewhere', { course: 'sfu:CMPT 125', direction: 'incoming', limit: 100 });
    expect(incoming.body.items.map((e: any) => e.otherInstitution)).toContain('langara');
    const alexander = await call('equivalent_elsewhere', { course: 'ALEX:ANTH 101', limit: 100 });
    expect(alexander.body.items.length).toBeGreaterThan(5);
  });

  it('parses prerequisites into a tree and checks a student record, naming what is missing', async () => {
    const parsed = await call('prereqs', { course: 'sfu:CMPT 225' });
    expect(parsed.body.parsed.fullyParsed).toBe(true);
    expect(JSON.stringify(parsed.body.parsed.tree)).toContain('"code":"MACM 101"');
    const ok = await call('prereqs', { course: 'sfu:CMPT 225', completed: [{ course: 'CMPT 125', grade: 'B' }, { course: 'MACM 101', grade: 'C' }] });
    expect(ok.body.check.satisfied).toBe(true);
    const lowGrade = await call('prereqs', { course: 'sfu:CMPT 225', completed: [{ course: 'CMPT 125', grade: 'D' }, { course: 'MACM 101', grade: 'A' }] });
    expect(lowGrade.body.check.satisfied).toBe(false);
    expect(JSON.stringify(lowGrade.body.check.missing)).toContain('CMPT 125');
    const ungraded = await call('prereqs', { course: 'sfu:CMPT 225', completed: [{ course: 'sfu:CMPT 125' }, { course: 'MACM 101' }] });
    expect(ungraded.body.check.satisfied).toBe('unknown');
  });

  it('lists credit exclusions with the courses they name', async () => {
    const { body } = await call('requisites', { course: 'sfu:CMPT 120' });
    const codes = body.exclusions.flatMap((e: any) => e.codes);
    expect(codes).toEqual(expect.arrayContaining(['CMPT 128', 'CMPT 130']));
    expect(codes).not.toContain('CMPT 120');
    expect(body.exclusions[0].text).toMatch(/may not take this course for further credit/);
  });

  it('serves repeated calls from the warm cache and says so in _meta', async () => {
    const client = await connectClient(server.url, { token: null, path: '/mcp/course' });
    try {
      const first = await client.callTool({ name: 'tn_course_get', arguments: { course: 'sfu:CMPT 120' } });
      const second = await client.callTool({ name: 'tn_course_get', arguments: { course: 'sfu:CMPT 120' } });
      expect((second._meta as any).execution.cached).toBe(true);
      expect(second.structuredContent).toEqual(first.structuredContent);
    } finally {
      await client.close();
    }
  });
});
