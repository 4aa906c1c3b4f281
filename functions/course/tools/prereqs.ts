import { bindCatalogTool, catalogVersion } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { requirersOf } from '../leads-to.js';
import { checkPrerequisites } from '../prerequisites/check.js';
import { unparsedTexts } from '../prerequisites/nodes.js';
import { parsePrerequisites } from '../prerequisites/parser.js';
import type { ParseResult } from '../prerequisites/tree.js';
import { prerequisiteVerdict } from '../prerequisites/verdict.js';
import { prereqsContract } from '../contracts/prereqs.js';

const codeOf = (course: string) => (course.includes(':') ? course.split(':')[1]! : course);

export const prereqsTool = bindCatalogTool(prereqsContract, async (args, ctx) => {
  const { view, bundle } = await loadCourse(ctx, args.course);
  const text = view.prerequisitesText;
  // Without a catalogue entry (a course known only from transfer rules, sections or grades) nothing
  // says what its prerequisites are: unknown, never "none" and never "met".
  const known = bundle.fragments.length > 0;
  // A tree the catalog publishes (UVic's Kuali rules) is the rule itself; parsing its rendered text could only lose detail.
  const given = bundle.fragments.find((fragment) => fragment.prerequisiteTree)?.prerequisiteTree;
  const parsed: ParseResult = given
    ? { tree: given, fullyParsed: unparsedTexts(given).length === 0, unparsedClauses: unparsedTexts(given), recommended: [], notes: [] }
    : parsePrerequisites(text ?? '', { institution: view.institution, defaultSubject: view.subject });
  const completed = args.completed?.map((c) => ({ code: codeOf(c.course), ...(c.grade ? { grade: c.grade } : {}) }));
  const concurrent = args.inProgress?.map(codeOf);
  const check = !completed
    ? null
    : known
      ? (() => {
          const result = checkPrerequisites(parsed.tree, completed, { concurrent });
          return { ...result, ...prerequisiteVerdict(parsed.tree, completed, result, { concurrent }) };
        })()
      : {
          satisfied: 'unknown' as const,
          missing: [],
          unmetConditions: [],
          explanation: [`No catalogue entry for ${view.code} is loaded, so its prerequisites are not known.`],
          status: 'not-known' as const,
          verdict: `Prerequisites not known: no catalogue entry for ${view.code} is loaded. Check with ${view.institution.toUpperCase()}.`,
          stillNeeded: [],
          gradesToConfirm: [],
          cannotCheck: [],
        };
  const version = Number(await catalogVersion(ctx));
  const leadsTo = (await requirersOf(ctx.services.store, version, view.institution, view.code)).map(([code, title]) => ({ course: `${view.institution}:${code}`, code, title }));
  return {
    data: { course: view.ref, text, parsed, treeFrom: given ? ('source' as const) : ('parser' as const), check, prerequisitesKnown: known, leadsTo },
    hints: {
      confidence: [
        { name: 'fully-parsed', value: !known ? 0 : parsed.fullyParsed ? 1 : 0.4 },
        { name: 'text-available', value: text ? 1 : known ? 0.5 : 0 },
        ...(check ? [{ name: 'check-decided', value: check.satisfied === 'unknown' ? 0.5 : 1 }] : []),
      ],
      warnings: !known
        ? [{ type: 'validation', severity: 'high', message: `No catalogue entry for ${view.ref} is loaded: its prerequisites are unknown, not empty`, suggestedFix: 'Ask the institution or its calendar' }]
        : parsed.fullyParsed
          ? []
          : [{ type: 'validation', severity: 'medium', message: `Could not parse: ${parsed.unparsedClauses.join(' | ')}`, suggestedFix: 'Read the original text to the student for these parts' }],
      nextActions: check?.satisfied === false ? [{ action: 'plan-missing', priority: 'high', tool: 'tn_course_schedule', description: 'find when the missing courses are offered' }] : [],
      assumptions: ['Prerequisite text as published in the source catalog; departments may grant exceptions'],
      validityPeriod: 'long',
    },
    ...(!known
      ? { instruction: 'This course has no catalogue entry here; do not tell the student it has no prerequisites.' }
      : parsed.fullyParsed
        ? {}
        : { instruction: 'Some of the prerequisite text could not be parsed; quote those clauses to the student rather than guessing.' }),
  };
});
