import { bindCatalogTool, loadCourse } from '../course-lookup.js';
import { summarizeGrades } from '../grade-summary.js';
import { newestFirst } from '../term-input.js';
import { instructorContract } from '../contracts/instructor.js';

export const instructorTool = bindCatalogTool(instructorContract, async (args, ctx) => {
  const { bundle, view } = await loadCourse(ctx, args.course);
  const byName = new Map<string, { terms: Set<string>; sections: { term: string; section: string }[] }>();
  const note = (name: string, term: string, section?: string) => {
    if (!name || /^\.?\s*TBA$/i.test(name)) return;
    const entry = byName.get(name) ?? { terms: new Set(), sections: [] };
    entry.terms.add(term);
    if (section && !entry.sections.some((s) => s.term === term && s.section === section)) entry.sections.push({ term, section });
    byName.set(name, entry);
  };
  bundle.offerings.forEach((o) => o.instructors.forEach((name) => note(name, o.term)));
  bundle.sections.forEach((s) => s.instructors.forEach((name) => note(name, s.term, s.section)));
  bundle.grades.filter((g) => g.section !== 'OVERALL').forEach((g) => g.instructors.forEach((name) => note(name, g.term, g.section)));

  const instructors = [...byName].map(([name, entry]) => {
    const taught = bundle.grades.filter((g) => g.instructors.includes(name));
    const summary = taught.length ? summarizeGrades(taught) : undefined;
    return {
      name,
      terms: [...entry.terms].sort(newestFirst),
      sections: entry.sections.sort((a, b) => newestFirst(a.term, b.term)),
      grades: summary ? { sections: summary.sections, enrolled: summary.enrolled, weightedAverage: summary.weightedAverage } : null,
    };
  });
  instructors.sort((a, b) => newestFirst(a.terms[0] ?? '0-spring', b.terms[0] ?? '0-spring') || a.name.localeCompare(b.name));
  return {
    data: { course: view.ref, instructors },
    hints: {
      confidence: [
        { name: 'instructors-found', value: instructors.length ? 1 : 0 },
        { name: 'with-grade-data', value: instructors.length ? instructors.filter((i) => i.grades).length / instructors.length : 0, weight: 0.3 },
      ],
      assumptions: ['Names are matched as written by each source; the same person spelled differently appears twice'],
      validityPeriod: 'long',
    },
  };
});
