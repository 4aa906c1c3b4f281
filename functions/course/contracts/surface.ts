import * as z from 'zod/v4';
import { CANONICAL_SUBJECT_SOURCE } from '../../catalog/course-ref.js';
import { definePrompt, defineResource, type AnyPromptContract, type AnyResourceContract } from '../../mcp/surface/surface-contract.js';
import { defineView, type ViewContract } from '../../mcp/surface/view-contract.js';

interface CourseData {
  ref: string;
  title: string | null;
  description: string | null;
  credits: number | null;
  prerequisitesText: string | null;
  corequisitesText: string | null;
  notes: string | null;
  designation: string | null;
  attributes: string[];
  offeredTerms: string[];
  gradeTerms: string[];
  sources: { source: string }[];
}

/** The tn_course_get view as a page a person reads. */
function courseMarkdown(course: CourseData): string {
  const line = (label: string, value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? [] : [`- **${label}:** ${value}`]);
  return [
    `# ${course.ref}${course.title ? ` — ${course.title}` : ''}`,
    '',
    ...(course.description ? [course.description, ''] : []),
    ...line('Credits', course.credits),
    ...line('Prerequisites', course.prerequisitesText),
    ...line('Corequisites', course.corequisitesText),
    ...line('Designation', course.designation),
    ...line('Attributes', course.attributes.join(', ')),
    ...line('Notes', course.notes),
    ...line('Offered', course.offeredTerms.slice(0, 6).join(', ')),
    ...line('Grade data', course.gradeTerms.length ? `${course.gradeTerms.length} terms` : null),
    '',
    `Sources: ${[...new Set(course.sources.map((s) => s.source))].join(', ') || 'none'}`,
  ].join('\n');
}

/** A canonical course reference as results carry it: `sfu:CMPT 225`. */
const COURSE_REF = new RegExp(String.raw`^([a-z0-9-]+):(${CANONICAL_SUBJECT_SOURCE} \d{3,4}[A-Z]{0,2})$`);

export const courseResource = defineResource({
  name: 'course',
  domain: 'course',
  title: 'Course',
  description: 'One course of the catalog: the same view as tn_course_get, as a readable page (markdown) and as JSON.',
  uriTemplate: 'course://{institution}/{code}',
  params: z.strictObject({
    institution: z.string().min(2).max(40).describe('Institution slug, e.g. "sfu"'),
    code: z.string().min(3).max(20).describe('Course code, e.g. "CMPT 225"'),
  }),
  completions: { institution: 'institution', code: 'course-code' },
  access: 'public',
  readsTools: ['course_get'],
  read: async ({ institution, code }, readTool) => {
    const course = (await readTool('course_get', { course: `${institution}:${code}` })) as CourseData;
    return { markdown: courseMarkdown(course), json: course };
  },
  // A result's canonical course references (`ref`, `course`: "sfu:CMPT 225") link to their pages.
  linkFrom: {
    fields: ['ref', 'course'],
    variables: (value) => {
      const match = COURSE_REF.exec(value);
      return match ? { institution: match[1]!, code: match[2]! } : undefined;
    },
    name: (value) => value,
  },
});

interface InstitutionPage {
  items: { id: string; name: string; bctgCode?: string; lastIngestedAt: string | null }[];
  nextCursor?: string;
}

export const institutionsResource = defineResource({
  name: 'institutions',
  domain: 'course',
  title: 'Institutions',
  description: 'Every institution Tutor Nexus knows, with the slug used in course references and how fresh its data is (tn_course_institutions).',
  uriTemplate: 'catalog://institutions',
  params: z.strictObject({}),
  access: 'public',
  readsTools: ['course_institutions'],
  read: async (_params, readTool) => {
    const items: InstitutionPage['items'] = [];
    let cursor: string | undefined;
    // A handful of pages at most: the registry holds a few dozen institutions.
    for (let page = 0; page < 10; page++) {
      const result = (await readTool('course_institutions', { limit: 100, ...(cursor ? { cursor } : {}) })) as InstitutionPage;
      items.push(...result.items);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    const rows = items.map((i) => `| \`${i.id}\` | ${i.name} | ${i.bctgCode ?? ''} | ${i.lastIngestedAt ?? 'no data yet'} |`);
    const markdown = ['# Institutions', '', '| slug | name | BC Transfer Guide | last ingested |', '| --- | --- | --- | --- |', ...rows].join('\n');
    return { markdown, json: { items } };
  },
});

export const canITakePrompt = definePrompt({
  name: 'can-i-take',
  domain: 'course',
  title: 'Can I take this course?',
  description: 'Checks whether a student can take a course, given the courses they have completed, and says what is missing.',
  args: z.strictObject({
    course: z.string().min(3).max(64).describe('The course to take, e.g. "sfu:CMPT 225"'),
    completed: z.string().max(2000).optional().describe('Completed courses, comma-separated, with grades when known, e.g. "sfu:CMPT 125 B+, sfu:MACM 101"'),
  }),
  completions: { course: 'course', completed: 'course-list' },
  usesTools: ['course_get', 'course_prereqs', 'course_schedule', 'course_search'],
  render: ({ course, completed }) =>
    [
      `Can I take ${course}? ${completed ? `I have completed: ${completed}.` : 'I have not told you what I completed yet.'}`,
      '',
      `Use tn_course_get { "course": "${course}" } for what the course is, then tn_course_prereqs with { "course": "${course}", "completed": [...] }`,
      '(one { course, grade } per completed course) to check the prerequisites against what I have done.',
      'Tell me plainly whether I am eligible; if not, name exactly which requirement is missing and which courses would satisfy it',
      '(tn_course_search can find them). Finish with when it is offered next (tn_course_schedule).',
    ].join('\n'),
});

export const courseResources: AnyResourceContract[] = [courseResource, institutionsResource];
export const coursePrompts: AnyPromptContract[] = [canITakePrompt];

export const prerequisiteTreeView = defineView({
  name: 'prerequisite-tree',
  domain: 'course',
  title: 'Prerequisite tree',
  description:
    'A tn_course_prereqs result as a tree: every course and condition the prerequisites name, marked met or unmet for the completed ' +
    'courses given, with what is missing; each course in it opens its own prerequisites.',
  tools: ['course_prereqs'],
});

export const gradeHistoryView = defineView({
  name: 'grade-history',
  domain: 'course',
  title: 'Grade history',
  description:
    'A tn_course_grades result as charts: the average per term with its trend, the average per instructor, and the grade ' +
    'distribution of any section or of all of them, suppressed bins shown as such.',
  tools: ['course_grades'],
});

export const courseViews: ViewContract[] = [prerequisiteTreeView, gradeHistoryView];
