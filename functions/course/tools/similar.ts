import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { catalogCacheFor } from '../catalog-cache.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';

export const similarTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_similar',
  title: 'Find similar courses',
  description:
    'Finds courses at the same institution whose title and description are most similar to a given course (text similarity, ' +
    'never the course itself). Use this when a course is full or not offered and the student wants alternatives. Returns a ' +
    'ranked page of courses. Example: { "course": "sfu:CMPT 225" }.',
  input: z.strictObject({ course: CourseRefInput, ...PaginationInput }),
  output: paginated(z.object({ ref: z.string(), title: z.string().nullable(), score: z.number(), sharedSubject: z.boolean() })),
  responseTime: 'fast',
  tags: ['catalog', 'search'],
  examples: [{ description: 'Courses like SFU CMPT 225', input: { course: 'sfu:CMPT 225', limit: 5 }, expect: 'success' }],
  async handler(args, ctx) {
    const { view } = await loadCourse(ctx, args.course);
    const index = await catalogCacheFor(ctx.services.store).getIndex();
    const hits = index.similar(view);
    const page = pageOf(hits, args, ctx.services.cursors, { tool: ctx.toolName, query: view.ref });
    const top = hits[0]?.score ?? 0;
    return {
      data: {
        ...page,
        items: page.items.map(({ course, score }) => ({
          ref: course.ref,
          title: course.title,
          score: top ? Math.round((score / top) * 1000) / 1000 : 0,
          sharedSubject: course.subject === view.subject,
        })),
      },
      hints: {
        confidence: [
          { name: 'has-description', value: view.description ? 1 : 0.3 },
          { name: 'has-results', value: hits.length ? 1 : 0 },
        ],
        assumptions: ['Similarity is lexical (shared words in titles and descriptions), not curricular equivalence'],
        nextActions: [{ action: 'compare', priority: 'medium', tool: 'tn_course_get', description: 'open a similar course' }],
        validityPeriod: 'long',
      },
    };
  },
});
