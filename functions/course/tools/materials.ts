import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { pageOf, paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { MaterialSchema } from '../catalog-model.js';
import { CATALOG_TOOL, CourseRefInput, loadCourse } from '../course-lookup.js';
import { TermInput } from '../term-input.js';

export const materialsTool = defineTool({
  ...CATALOG_TOOL,
  name: 'course_materials',
  title: 'Course materials',
  description:
    'Lists study materials ingested for a course (past exams, homework, notes, texts, syllabi) with links and terms, from the ' +
    'materials manifests an operator loaded (docs/materials-manifest.md). Use this when a student wants practice material. Returns ' +
    'an empty list with a hint when nothing is known; entries are never invented. Example: { "course": "sfu:CMPT 225", "kind": "exam" }.',
  input: z.strictObject({
    course: CourseRefInput,
    kind: MaterialSchema.shape.materialKind.optional().describe('Only this kind: exam, homework, notes, text, syllabus or other'),
    term: optionalField(TermInput),
    ...PaginationInput,
  }),
  output: paginated(MaterialSchema.omit({ kind: true })),
  responseTime: 'fast',
  tags: ['catalog', 'materials'],
  examples: [{ description: 'Past exams for SFU CMPT 225', input: { course: 'sfu:CMPT 225', kind: 'exam' }, expect: 'success' }],
  async handler(args, ctx) {
    const { bundle, view } = await loadCourse(ctx, args.course);
    const materials = bundle.materials
      .filter((m) => (!args.kind || m.materialKind === args.kind) && (!args.term || m.term === args.term))
      .sort((a, b) => (b.term ?? '').localeCompare(a.term ?? '') || a.title.localeCompare(b.title))
      .map(({ kind: _kind, ...material }) => material);
    const page = pageOf(materials, args, ctx.services.cursors, { tool: ctx.toolName, query: [view.ref, args.kind, args.term] });
    return {
      data: page,
      hints: {
        confidence: [{ name: 'materials-found', value: materials.length ? 1 : 0 }],
        nextActions: materials.length
          ? []
          : [{ action: 'no-materials', priority: 'low', description: 'no materials are known for this course; suggest the course website or the department' }],
        ...(materials.length ? {} : { contextNeeded: ['a materials manifest for this course'] }),
        validityPeriod: 'long',
      },
      ...(materials.length ? {} : { instruction: 'Tell the student no materials are on file for this course. Do not invent exam or homework links.' }),
    };
  },
});
