import { termOrder } from '../../catalog/terms.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { completeness, freshness, loadCourse } from '../course-lookup.js';
import { getContract } from '../contracts/get.js';
import { equivalencesOf } from '../../catalog/transfer-equivalence.js';

export const getTool = bindCatalogTool(getContract, async (args, ctx) => {
  const { view, bundle } = await loadCourse(ctx, args.course);
  const terms = (values: string[]) => [...new Set(values)].sort((a, b) => termOrder(b) - termOrder(a));
  const data = {
    ...view,
    offeredTerms: terms([...bundle.offerings.map((o) => o.term), ...bundle.sections.map((s) => s.term)]),
    sectionTerms: terms(bundle.sections.map((s) => s.term)),
    gradeTerms: terms(bundle.grades.map((g) => g.term)),
    materialsCount: bundle.materials.length,
    knownFrom: (
      [
        ['catalogue', bundle.fragments.length],
        ['offerings', bundle.offerings.length],
        ['sections', bundle.sections.length],
        ['grades', bundle.grades.length],
        ['materials', bundle.materials.length],
        ['transfer-rules', equivalencesOf(bundle.transferRules).length],
      ] as const
    )
      .filter(([, count]) => count > 0)
      .map(([part]) => part),
  };
  const newest = view.sources.map((s) => s.ingestedAt).sort().at(-1);
  return {
    data,
    hints: {
      confidence: [
        { name: 'field-completeness', value: completeness([view.title, view.description, view.credits, view.prerequisitesText]) },
        { name: 'freshness', value: freshness(newest, ctx.now()), weight: 0.5 },
      ],
      nextActions: [
        ...(view.prerequisitesText ? [{ action: 'check-prerequisites', priority: 'high' as const, tool: 'tn_course_prereqs', data: { course: view.ref } }] : []),
        ...(data.sectionTerms.length ? [{ action: 'see-sections', priority: 'medium' as const, tool: 'tn_course_schedule', data: { course: view.ref } }] : []),
        ...(data.gradeTerms.length ? [{ action: 'see-grades', priority: 'low' as const, tool: 'tn_course_grades', data: { course: view.ref } }] : []),
      ],
      relatedResources: view.sources.map((s) => ({ type: 'source', id: s.sourceRecordId, label: s.source, relevance: 1 })),
      sourceQuality: 'high',
      validityPeriod: 'long',
    },
  };
});
