import { pageOf } from '../../mcp/tools/pagination.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { loadCourse } from '../course-lookup.js';
import { materialsContract } from '../contracts/materials.js';

export const materialsTool = bindCatalogTool(materialsContract, async (args, ctx) => {
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
});
