import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { CATALOG_TOOL, CourseRefInput } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const TermOfferingSchema = z.object({
  term: z.string(),
  sectionCount: z.number().int().describe('Sections known for the term (0 when only the offering is known)'),
  instructors: z.array(z.string()),
  deliveryMethods: z.array(z.string()),
  campuses: z.array(z.string()),
  meetingPatterns: z.array(z.string()).describe('e.g. "D100 LEC MoWeFr 13:30-14:20 Burnaby"'),
  openSeats: z.number().int().nullable().describe('Sum of open seats where the source reports seats; null when unknown'),
});

export const scheduleContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_schedule',
  title: 'Course offerings by term',
  description:
    'Lists when a course is offered and returns, newest term first, per term the number of sections, instructors, delivery methods, ' +
    'campuses, meeting times and open seats where known. Use this to answer "when is it offered?" before picking a section ' +
    '(tn_course_section_list). Example: { "course": "sfu:CMPT 225" } or with { "term": "2026-spring" }.',
  input: z.strictObject({ course: CourseRefInput, term: optionalField(TermInput), ...PaginationInput }),
  output: paginated(TermOfferingSchema),
  responseTime: 'fast',
  tags: ['catalog', 'schedule'],
  examples: [
    { description: 'When SFU CMPT 225 is offered', input: { course: 'sfu:CMPT 225' }, expect: 'success' },
    { description: 'A malformed term is refused', input: { course: 'sfu:CMPT 225', term: 'someday' }, expect: 'BAD_REQUEST' },
  ],
});
