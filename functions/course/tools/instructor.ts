import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { summarizeGrades } from '../grade-summary.js';
import { mergeInstructors, personBySpelling, type NameAppearance } from '../instructor-names.js';
import { newestFirst } from '../term-input.js';
import { instructorContract } from '../contracts/instructor.js';

const isNamed = (name: string) => name.trim() !== '' && !/^\.?\s*TBA$/i.test(name.trim());

export const instructorTool = bindCatalogTool(instructorContract, async (args, ctx) => {
  const { bundle, view } = await loadCourse(ctx, args.course);
  const gradeRows = bundle.grades.filter((g) => g.section !== 'OVERALL');
  const listed = (names: string[]) => names.map((name) => name.trim()).filter(isNamed);
  const appearances: (NameAppearance & { section?: string })[] = [
    ...bundle.offerings.flatMap((o) => listed(o.instructors).map((name) => ({ name, term: o.term }))),
    ...bundle.sections.flatMap((s) => listed(s.instructors).map((name) => ({ name, term: s.term, section: s.section, together: listed(s.instructors) }))),
    ...gradeRows.flatMap((g) => listed(g.instructors).map((name) => ({ name, term: g.term, section: g.section, together: listed(g.instructors) }))),
  ];
  // One person per entry however each source spelled them ("Nick Bradley", "Nicholas Bradley").
  const people = mergeInstructors(appearances);
  const personOf = personBySpelling(people);
  const instructors = people.map((person) => {
    const mine = appearances.filter((a) => personOf.get(a.name) === person);
    const sections = [...new Map(mine.filter((a) => a.section).map((a) => [`${a.term}#${a.section}`, { term: a.term, section: a.section! }])).values()];
    const taught = gradeRows.filter((g) => g.instructors.some((name) => personOf.get(name.trim()) === person));
    const summary = taught.length ? summarizeGrades(taught) : undefined;
    return {
      name: person.name,
      ...(person.variants.length > 1 ? { spellings: person.variants } : {}),
      terms: [...new Set(mine.map((a) => a.term))].sort(newestFirst),
      sections: sections.sort((a, b) => newestFirst(a.term, b.term)),
      grades: summary ? { sections: summary.sections, enrolled: summary.enrolled, weightedAverage: summary.weightedAverage, terms: summary.terms.sort(newestFirst) } : null,
    };
  });
  instructors.sort((a, b) => newestFirst(a.terms[0] ?? '0-spring', b.terms[0] ?? '0-spring') || a.name.localeCompare(b.name));
  const merged = instructors.filter((i) => i.spellings).length;
  return {
    data: { course: view.ref, instructors },
    hints: {
      confidence: [
        { name: 'instructors-found', value: instructors.length ? 1 : 0 },
        { name: 'with-grade-data', value: instructors.length ? instructors.filter((i) => i.grades).length / instructors.length : 0, weight: 0.3 },
      ],
      assumptions: [
        'Spellings of one name are merged within this course (case, accents, a middle name, a short first name such as Nick for Nicholas); two names on one section are always two people',
        ...(merged ? [`${merged} instructor(s) appear under more than one spelling (see spellings)`] : []),
      ],
      validityPeriod: 'long',
    },
  };
});
