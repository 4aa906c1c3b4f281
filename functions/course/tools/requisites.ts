import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { parsePrerequisites } from '../prerequisites/parser.js';
import { extractRequisites } from '../prerequisites/requisites.js';
import { requisitesContract } from '../contracts/requisites.js';

export const requisitesTool = bindCatalogTool(requisitesContract, async (args, ctx) => {
  const { view } = await loadCourse(ctx, args.course);
  const coreqText = view.corequisitesText;
  const corequisites = coreqText
    ? parsePrerequisites(coreqText, { institution: view.institution, defaultSubject: view.subject, corequisite: true })
    : null;
  // SFU states exclusions in notes; UBC and Langara inside the description.
  const exclusions = [view.notes, view.description]
    .flatMap((text) => extractRequisites(text ?? '', { self: view.code, defaultSubject: view.subject }))
    .map((requisite) => ({ ...requisite, refs: requisite.codes.map((code) => `${view.institution}:${code}`) }));
  return {
    data: { course: view.ref, corequisites: { text: coreqText, parsed: corequisites }, exclusions },
    hints: {
      confidence: [
        { name: 'corequisites-parsed', value: !corequisites || corequisites.fullyParsed ? 1 : 0.4 },
        { name: 'source-text-available', value: view.notes || view.description ? 1 : 0.3 },
      ],
      nextActions: exclusions.length
        ? [{ action: 'check-record', priority: 'high', description: 'ask whether the student already has credit for an excluded course' }]
        : [],
      validityPeriod: 'long',
    },
  };
});
