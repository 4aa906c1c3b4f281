import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { SUBJECT_SOURCE } from '../../catalog/course-ref.js';
import { CATALOG_TOOL } from './catalog-tool.js';
import { TermInput } from '../term-input.js';

export const HitSchema = z.object({
  ref: z.string(),
  title: z.string().nullable(),
  credits: z.number().nullable(),
  institution: z.string(),
  level: z.number().int(),
  score: z.number().describe('Relevance; higher is better, comparable only within one search'),
  snippet: z.string().nullable().describe('Start of the description'),
});

export const searchContract = defineContract({
  ...CATALOG_TOOL,
  name: 'course_search',
  title: 'Search courses',
  description:
    'Ranked search over course codes, titles and descriptions, optionally within one institution, subject, year ' +
    'level or term offered. Use it for a topic or a code, typed as students do ("calc 1", "intro to CS", "cmpt225", typos). Returns a ' +
    'page of matches with refs to pass to tn_course_get. Example: { "query": "data structures", "institution": "sfu" }.',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).describe('Words or a course code, e.g. "data structures" or "CMPT 225"'),
    institution: z.string().min(2).max(40).optional().describe('Institution slug or code, e.g. "sfu", "UBCV", "langara"'),
    subject: z.string().regex(new RegExp(`^${SUBJECT_SOURCE}$`)).optional().describe('Subject code, e.g. "CMPT" (UVic has hyphenated ones: "ED-D")'),
    level: z.number().int().min(1).max(9).optional().describe('Year level: 1 for 100-level (1000-level at Langara), 2 for 200-level, …'),
    term: TermInput.optional().describe('Only courses with sections or an offering in this term, e.g. "2026-spring" (where the catalog has schedules: SFU, Langara)'),
    ...PaginationInput,
  }),
  output: paginated(HitSchema),
  responseTime: 'fast',
  tags: ['catalog', 'search'],
  examples: [
    { description: 'Data structures at SFU', input: { query: 'data structures', institution: 'sfu', limit: 5 }, expect: 'success' },
    { description: 'Data structures courses SFU offers in Spring 2026', input: { query: 'data structures', institution: 'sfu', term: '2026-spring' }, expect: 'success' },
    { description: 'An empty query is refused', input: { query: '' }, expect: 'BAD_REQUEST' },
  ],
});
