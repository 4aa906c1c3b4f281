import { bindCatalogTool, loadCourse } from '../course-lookup.js';
import { checkPrerequisites } from '../prerequisites/check.js';
import { unparsedTexts } from '../prerequisites/nodes.js';
import { parsePrerequisites } from '../prerequisites/parser.js';
import type { ParseResult } from '../prerequisites/tree.js';
import { prereqsContract } from '../contracts/prereqs.js';

export const prereqsTool = bindCatalogTool(prereqsContract, async (args, ctx) => {
  const { view, bundle } = await loadCourse(ctx, args.course);
  const text = view.prerequisitesText;
  // A tree the catalog publishes (UVic's Kuali rules) is the rule itself; parsing its rendered text could only lose detail.
  const given = bundle.fragments.find((fragment) => fragment.prerequisiteTree)?.prerequisiteTree;
  const parsed: ParseResult = given
    ? { tree: given, fullyParsed: unparsedTexts(given).length === 0, unparsedClauses: unparsedTexts(given), recommended: [], notes: [] }
    : parsePrerequisites(text ?? '', { institution: view.institution, defaultSubject: view.subject });
  const check = args.completed
    ? checkPrerequisites(
        parsed.tree,
        args.completed.map((c) => ({ code: c.course.includes(':') ? c.course.split(':')[1]! : c.course, ...(c.grade ? { grade: c.grade } : {}) })),
        { concurrent: args.inProgress?.map((c) => (c.includes(':') ? c.split(':')[1]! : c)) },
      )
    : null;
  return {
    data: { course: view.ref, text, parsed, treeFrom: given ? ('source' as const) : ('parser' as const), check },
    hints: {
      confidence: [
        { name: 'fully-parsed', value: parsed.fullyParsed ? 1 : 0.4 },
        { name: 'text-available', value: text ? 1 : 0.5 },
        ...(check ? [{ name: 'check-decided', value: check.satisfied === 'unknown' ? 0.5 : 1 }] : []),
      ],
      warnings: parsed.fullyParsed
        ? []
        : [{ type: 'validation', severity: 'medium', message: `Could not parse: ${parsed.unparsedClauses.join(' | ')}`, suggestedFix: 'Read the original text to the student for these parts' }],
      nextActions: check?.satisfied === false ? [{ action: 'plan-missing', priority: 'high', tool: 'tn_course_schedule', description: 'find when the missing courses are offered' }] : [],
      assumptions: ['Prerequisite text as published in the source catalog; departments may grant exceptions'],
      validityPeriod: 'long',
    },
    ...(parsed.fullyParsed ? {} : { instruction: 'Some of the prerequisite text could not be parsed; quote those clauses to the student rather than guessing.' }),
  };
});
