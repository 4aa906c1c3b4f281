import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { sourceNamed } from '../../functions/ingest/sources.js';
import { realCourses } from '../../bench/catalog.js';
import { decodeIndex, encodeIndex } from '../../functions/catalog/search/index-codec.js';
import { SearchIndex } from '../../functions/catalog/search/search-index.js';

let index: SearchIndex;
beforeAll(async () => {
  index = SearchIndex.build(await realCourses());
}, 60_000);

const refs = (hits: { course: { ref: string } }[], n = 5) => hits.slice(0, n).map((hit) => hit.course.ref);

describe('catalog search index (shipped real courses)', () => {
  it('finds a course by its code typed loosely', () => {
    for (const typed of ['CMPT 225', 'cmpt225', 'CMPT-225', 'cmpt 225']) {
      expect(refs(index.query(typed, { institution: 'sfu' }), 1), typed).toEqual(['sfu:CMPT 225']);
    }
  });

  it('ranks title matches for a topic, and tolerates a typo in a title word', () => {
    const exact = index.query('data structures', { institution: 'sfu' });
    expect(refs(exact)).toContain('sfu:CMPT 225');
    const typo = index.query('data structurs', { institution: 'sfu' });
    expect(refs(typo)).toContain('sfu:CMPT 225');
  });

  it('completes the last word as it is typed', () => {
    const hits = index.query('calcul', { institution: 'sfu' });
    expect(hits.slice(0, 5).every((hit) => /calcul/i.test(hit.course.title ?? ''))).toBe(true);
  });

  it('applies institution, subject and level filters to every hit', () => {
    const hits = index.query('programming', { institution: 'sfu', subject: 'CMPT', level: 1 });
    expect(hits.length).toBeGreaterThan(0);
    for (const { course } of hits) expect([course.institution, course.subject, course.level]).toEqual(['sfu', 'CMPT', 1]);
    expect(index.query('programming', { institution: 'no-such-school' })).toEqual([]);
  });

  it('falls back to courses matching some of the words only when none matches all', () => {
    const all = index.query('introduction programming');
    const none = index.query('introduction qwxzv');
    expect(all.length).toBeGreaterThan(0);
    expect(none.length).toBeGreaterThan(0);
    expect(index.query('qwxzv zzqqy')).toEqual([]);
  });

  it('answers the same after a round trip through its artifact', () => {
    const loaded = decodeIndex(encodeIndex(index));
    expect(loaded.size).toBe(index.size);
    for (const query of ['data structures', 'cmpt225', 'calcul', 'introduction to psychology', 'organic chemistry']) {
      const before = index.query(query);
      const after = loaded.query(query);
      expect(after.map((h) => [h.course.ref, h.course.title, h.course.snippet, h.course.credits, Math.round(h.score * 1e4)])).toEqual(
        before.map((h) => [h.course.ref, h.course.title, h.course.snippet, h.course.credits, Math.round(h.score * 1e4)]),
      );
    }
    expect(loaded.refsStartingWith('sfu:CMPT 2', 3)).toEqual(index.refsStartingWith('sfu:CMPT 2', 3));
  });

  it('keeps to the courses offered in a term when asked, through the artifact too', async () => {
    // Terms from the real SFU schedules: what a source lists in each term, as ingestion records it.
    const sections = sourceNamed('sfu-sections')!;
    const offered = new Map<string, string[]>();
    for (const file of ['sections-2025-fall.json', 'sections-2026-spring.json']) {
      const { records } = sections.parse(await readFile(`data/sample/sfu-outlines/${file}`, 'utf8'), { ingestedAt: '2026-01-01T00:00:00Z', origin: file });
      for (const record of records) if (record.kind === 'section') offered.set(`sfu:${record.code}`, [...new Set([...(offered.get(`sfu:${record.code}`) ?? []), record.term])]);
    }
    const courses = (await realCourses()).map((course) => ({ ...course, termsOffered: offered.get(course.ref) ?? [] }));
    const withTerms = SearchIndex.build(courses);
    const spring = new Set([...offered].filter(([, terms]) => terms.includes('2026-spring')).map(([ref]) => ref));
    for (const built of [withTerms, decodeIndex(encodeIndex(withTerms))]) {
      for (const query of ['programming', 'data structures', 'calculus', 'statistics']) {
        const all = built.query(query, { institution: 'sfu' });
        const inSpring = built.query(query, { institution: 'sfu', term: '2026-spring' });
        // The same ranking, with exactly the courses not offered that term left out.
        expect(inSpring.map((h) => h.course.ref), query).toEqual(all.map((h) => h.course.ref).filter((ref) => spring.has(ref)));
      }
      const programming = built.query('programming', { term: '2026-spring' });
      expect(programming.length).toBeGreaterThan(0);
      expect(programming.length).toBeLessThan(built.query('programming').length);
      expect(built.query('programming', { term: '1999-fall' })).toEqual([]);
    }
  });

  it('completes course references by prefix, in order, with the total', () => {
    const { refs: found, total } = index.refsStartingWith('sfu:CMPT 2', 5);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((ref) => ref.startsWith('sfu:CMPT 2'))).toBe(true);
    expect([...found].sort()).toEqual(found);
    expect(total).toBeGreaterThanOrEqual(found.length);
  });

  it('finds similar courses at the same institution, never the course itself', () => {
    const hits = index.similar({ ref: 'sfu:CMPT 225', institution: 'sfu', title: 'Data Structures and Programming', description: 'Introduction to a variety of practical and important data structures and methods' });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.course.institution === 'sfu' && hit.course.ref !== 'sfu:CMPT 225')).toBe(true);
  });
});
