import { describe, expect, it } from 'vitest';
import { readCatalogText } from '../../functions/catalog/search/catalog-text.js';
import { decodeIndex, encodeIndex } from '../../functions/catalog/search/index-codec.js';
import { codesIn, countRequiredBy } from '../../functions/catalog/search/prerequisite-mentions.js';
import { SearchIndex, type CourseSource } from '../../functions/catalog/search/search-index.js';
import { abbreviates, deriveSubjectNames } from '../../functions/catalog/search/subject-names.js';
import { termOf, termsOf } from '../../functions/catalog/search/tokens.js';

// A made-up college: every rule must work from what its catalog says, never from a known course.
function course(code: string, title: string, description = '', prerequisitesText: string | null = null, institution = 'north'): CourseSource {
  const [subject, number] = code.split(' ') as [string, string];
  return { ref: `${institution}:${code}`, institution, code, subject, number, level: Number(number[0]), title, credits: 3, description, prerequisitesText };
}

const CATALOG: CourseSource[] = [
  course('CPSC 110', 'Introduction to Programming', 'A first course in computer science: programs, functions and data.'),
  course('CPSC 121', 'Models of Computation', 'Logic and proof for computer science majors.'),
  course('CPSC 210', 'Software Construction', 'Designing larger programs.', 'CPSC 110.'),
  course('CPSC 221', 'Algorithms and Data Structures', 'Lists, trees and graphs in computer science.', 'CPSC 110 and 121.'),
  course('CPSC 310', 'Database Systems', 'Relational databases and SQL.', 'CPSC 210 or 221.'),
  course('CPSC 410', 'Topics in Computer Science', 'Special topics.', 'CPSC 310.'),
  course('CS 101', 'Introduction to Canadian Culture', 'Canadian studies: the arts and letters of Canada.'),
  course('CS 200', 'Topics in Canadian Studies', 'Canadian studies seminar.'),
  course('PSYC 100', 'Introduction to Psychology', 'Perception, memory and behaviour in psychology.'),
  course('PSYC 210', 'Research Methods in Psychology', 'Designing psychology studies.', 'PSYC 100.'),
  course('PSYC 320', 'Social Psychology', 'Groups and attitudes.', 'PSYC 100; PSYC 210.'),
  course('EDUC 220', 'Introduction to Educational Psychology', 'Psychology of learning in classrooms.'),
  course('FILM 332', 'Intro to Film Studies', 'Cinema as art.'),
  course('MATH 090', 'Pre-Calculus', 'Functions and graphs before calculus.'),
  course('MATH 100', 'Calculus I', 'Limits and derivatives.', 'MATH 090.'),
  course('MATH 101', 'Calculus II', 'Integrals and series.', 'MATH 100.'),
  course('MATH 200', 'Calculus III', 'Several variables.', 'MATH 101.'),
  course('MATH 220', 'Linear Algebra', 'Matrices and vector spaces.', 'MATH 100.'),
  course('PHYS 100', 'Mechanics', 'Motion, using calculus throughout.', 'MATH 100, 101.'),
  course('STAT 200', 'Introduction to Statistics', 'Statistics for everyone: data, distributions, inference.', 'MATH 100.'),
  course('STAT 300', 'Statistical Inference', 'Statistics beyond the first course.', 'STAT 200.'),
  course('ENGR 221', 'Statics', 'Forces in equilibrium.', 'PHYS 100.'),
  course('OCEN 110', 'Tides and Currents', 'How the sea moves.'),
  course('OCEN 111', 'Tides and Coastlines', 'How the sea shapes the shore.', 'OCEN 110.'),
  course('OCEN 310', 'Harbour Engineering', 'Designing harbours.', 'OCEN 111.'),
  course('OCEN 311', 'Coastal Engineering', 'Protecting coasts.', 'OCEN 111.'),
  course('CPSC 110', 'Programming for Everyone', 'A first course in computer science.', null, 'south'),
  course('PSYC 120', 'Introduction to Psychology', 'Mind and behaviour in psychology.', null, 'south'),
];

const index = SearchIndex.build(CATALOG);
const refs = (query: string, institution?: string, n = 3) =>
  index
    .query(query, institution ? { institution } : {})
    .slice(0, n)
    .map((hit) => hit.course.ref);

describe('subject names read from the catalog', () => {
  it('names a subject by the words its code abbreviates and its courses use, and never another subject by them', () => {
    const names = deriveSubjectNames(CATALOG, readCatalogText(CATALOG));
    expect(names.north!.CPSC).toContain('computer science');
    expect(names.north!.PSYC).toContain('psychology');
    expect(names.north!.CS).not.toContain('computer science');
    expect(names.north!.EDUC).not.toContain('psychology');
  });

  it('abbreviates a word by its letters in order, a pair by a split at the second word or as a field, a two-letter code by initials', () => {
    expect(abbreviates('psyo', 'psychology')).toBe(true);
    expect(abbreviates('cpsc', 'computer science')).toBe(true);
    expect(abbreviates('cs', 'canadian study')).toBe(true);
    expect(abbreviates('cs', 'computer')).toBe(false);
    expect(abbreviates('bus', 'building trust')).toBe(false);
    // A pair whose first word already covers the code names the subject only as a field ("… science", "… studies").
    expect(abbreviates('cmpt', 'computer graphics')).toBe(false);
    expect(abbreviates('pol', 'political science')).toBe(true);
    expect(abbreviates('gndr', 'gender study')).toBe(true);
  });
});

describe('how central a course is, from the prerequisites that name it', () => {
  it('reads codes with the subject carried to bare numbers, within a sentence', () => {
    expect(codesIn('MATH 150, 151 or 154; or STAT 101 and 1172.')).toEqual(['MATH 150', 'MATH 151', 'MATH 154', 'STAT 101', 'STAT 1172']);
    expect(codesIn('One of CPSC_V 110, CPSC_V 103.')).toEqual(['CPSC 110', 'CPSC 103']);
  });

  it('counts each requiring course once, at the same institution only, never a course requiring itself', () => {
    const counts = countRequiredBy([
      { ref: 'a:XY 100', institution: 'a', prerequisitesText: 'XY 100.' },
      { ref: 'a:XY 200', institution: 'a', prerequisitesText: 'XY 100 or XY 100 with a B.' },
      { ref: 'a:XY 300', institution: 'a', corequisitesText: 'XY 100, 200.' },
      { ref: 'b:XY 100', institution: 'b', prerequisitesText: null },
      { ref: 'b:YZ 100', institution: 'b', prerequisitesText: 'XY 100 and ZZ 999.' },
    ]);
    expect([...counts]).toEqual([2, 1, 0, 1, 0]);
  });
});

describe('reading a query as a student means it', () => {
  it('puts a course code typed any way first, then the codes it starts', () => {
    for (const typed of ['CPSC 210', 'cpsc210', 'CPSC-210']) expect(refs(typed, 'north', 1), typed).toEqual(['north:CPSC 210']);
    expect(refs('cpsc 2', 'north', 2).sort()).toEqual(['north:CPSC 210', 'north:CPSC 221']);
    expect(refs('cs 101', undefined, 1)).toEqual(['north:CS 101']);
  });

  it('reads a code only where the search looks, and one digit after shorthand as a part', () => {
    // PSYC 210 is north's: searched at south, the words are what the student asked for.
    expect(refs('psyc 210', 'south', 1)).toEqual(['south:PSYC 120']);
    expect(refs('psyc 210 south', undefined, 1)).toEqual(['south:PSYC 120']);
    expect(refs('psyc 210', 'north', 1)).toEqual(['north:PSYC 210']);
    // "cs 1" is the first computer science course, not every CS 1xx; "cpsc 2" is CPSC's 200 level.
    expect(index.query('cs 1', { institution: 'north' }).map((hit) => hit.course.subject)[0]).toBe('CPSC');
    expect(refs('cpsc 2', 'north', 2).sort()).toEqual(['north:CPSC 210', 'north:CPSC 221']);
  });

  it('reads shorthand by what it means and by the subject the catalog names by it, not by a code that means something else', () => {
    const cs = index.query('intro to CS', { institution: 'north' }).map((hit) => hit.course.subject);
    expect(cs.slice(0, 3)).toEqual(['CPSC', 'CPSC', 'CPSC']);
    expect(cs).not.toContain('CS');
    expect(refs('learn to code', 'north', 1)).toEqual(['north:CPSC 110']);
    expect(refs('calc 1', 'north', 1)).toEqual(['north:MATH 100']);
  });

  it('puts the first course of a subject a query names first, and the subject before words elsewhere', () => {
    expect(refs('intro to psychology', 'north', 1)).toEqual(['north:PSYC 100']);
    expect(refs('psych', 'north', 2)).toEqual(['north:PSYC 100', 'north:PSYC 210']);
    expect(refs('intro programming', 'north')).not.toContain('north:FILM 332');
  });

  it('puts a course before the match that requires it when no title numbers the parts, and the later part when asked for', () => {
    // OCEN 111 opens more courses, but it requires OCEN 110, which is as much about tides.
    expect(refs('tides', 'north', 2)).toEqual(['north:OCEN 110', 'north:OCEN 111']);
    expect(refs('tides 2', 'north', 1)).toEqual(['north:OCEN 111']);
    expect(refs('tides ii', 'north', 1)).toEqual(['north:OCEN 111']);
  });

  it('prefers the course more courses require, and part I when no part is asked', () => {
    const calculus = refs('calculus', 'north', 10);
    expect(calculus[0]).toBe('north:MATH 100');
    // "Pre-Calculus" is not calculus: it only mentions it.
    expect(calculus.indexOf('north:MATH 090')).toBeGreaterThan(calculus.indexOf('north:MATH 101'));
    expect(refs('calculus 2', 'north', 1)).toEqual(['north:MATH 101']);
  });

  it('lets standing lift a course about the words asked, and a central course of the subject a query names that only mentions another word in passing only in part', () => {
    // A central calculus course whose short description mentions discrete probability, and a course
    // about discrete mathematics that nothing requires (made up, like the rest of this catalog);
    // "math" names MATH, so both are in the subject asked for.
    const central = course('MATH 100', 'Differential Calculus', 'Derivatives, optimization and discrete probability.', null, 'east');
    const subjects = ['PHYS', 'CHEM', 'ECON', 'BIOL', 'STAT', 'CPSC', 'MATH'];
    const requirers = Array.from({ length: 12 }, (_, i) => course(`${subjects[i % 7]} ${300 + i}`, `Course ${i}`, 'Applied methods.', 'MATH 100.', 'east'));
    const about = course('MATH 240', 'Discrete Mathematics', 'Sets, logic, graphs, counting, recurrences, proofs by induction and combinatorial arguments for computing students.', null, 'east');
    const east = SearchIndex.build([central, about, ...requirers, course('MATH 110', 'Integral Calculus', 'Integrals.', 'MATH 100.', 'east')]);
    const order = (query: string) => east.query(query).map((hit) => hit.course.ref);
    expect(order('discrete math').slice(0, 2)).toEqual(['east:MATH 240', 'east:MATH 100']);
    // About the word, the central course still comes first: standing orders courses equally about it.
    expect(order('calculus')[0]).toBe('east:MATH 100');
  });

  it('corrects a typo to the nearest word and meets plurals in the singular', () => {
    expect(refs('statistcs', 'north', 2)).toEqual(['north:STAT 200', 'north:STAT 300']);
    expect(refs('databases', 'north', 1)).toEqual(['north:CPSC 310']);
    // Eight letters typed may be two edits off: the likelier readings are kept, weighed by how common and how near.
    const near = (word: string, typed: number) => index.lexicon.nearestTerms(word, typed).map((term) => index.lexicon.wordOf(term));
    expect(near('stastic', 8).sort()).toEqual(['static', 'statistic']);
    expect(near('stastic', 7)).toEqual(['static']);
    expect(termsOf("Women's Studies")).toEqual(['women', 'study']);
    expect(termsOf('Pre-Calculus Studies')).toEqual(['precalculus', 'study']);
    expect([termOf('analysis'), termOf('calculus'), termOf('classes'), termOf('cmpt225')]).toEqual(['analysis', 'calculus', 'class', 'cmpt225']);
  });

  it('answers a code no course has from its words, and nothing for words no course has', () => {
    expect(() => index.query('cpsc 999')).not.toThrow();
    expect(index.query('qqzzx')).toEqual([]);
    expect(index.query('   ')).toEqual([]);
  });

  it('answers the same through its artifact, and an artifact of an older format is refused (and so rebuilt)', () => {
    const loaded = decodeIndex(encodeIndex(index));
    for (const query of ['intro to CS', 'calc 1', 'statistcs', 'cpsc 2', 'psych']) {
      expect(loaded.query(query).map((h) => [h.course.ref, h.score])).toEqual(index.query(query).map((h) => [h.course.ref, h.score]));
    }
    const artifact = encodeIndex(index);
    const older = Buffer.from(artifact.toString('latin1').replace('"format":6', '"format":5'), 'latin1');
    expect(() => decodeIndex(older)).toThrow(/format 5/);
  });
});
