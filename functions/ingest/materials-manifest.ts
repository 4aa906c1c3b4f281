import * as z from 'zod/v4';
import { parseCourseRef } from '../catalog/course-ref.js';
import { parseTerm } from '../catalog/terms.js';
import type { CatalogRecord, RejectedRecord, SourceAdapter } from '../catalog/catalog-model.js';

/** One manifest entry; the format is documented in docs/materials-manifest.md. */
const EntrySchema = z.object({
  course: z.string(),
  kind: z.enum(['exam', 'homework', 'notes', 'text', 'syllabus', 'other']),
  title: z.string().min(1).max(300),
  url: z.url({ protocol: /^https?$/ }),
  term: z.string().optional(),
  id: z.string().min(1).max(120).optional(),
});

const ManifestSchema = z.object({ materials: z.array(z.unknown()) });

export const materialsManifestAdapter: SourceAdapter = {
  name: 'materials',
  description: 'Course materials manifest (past exams, homework, notes, texts) — docs/materials-manifest.md',
  institutions: [],
  // Each manifest owns its entries: an entry dropped from a manifest is retired, other manifests are untouched.
  scopeOf: (_record, context) => context.origin,
  parse(raw, context) {
    const records: CatalogRecord[] = [];
    const rejected: RejectedRecord[] = [];
    let manifest: z.infer<typeof ManifestSchema>;
    try {
      manifest = ManifestSchema.parse(JSON.parse(raw));
    } catch (error) {
      return { records, rejected: [{ reason: `not a materials manifest: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid'}` }] };
    }
    manifest.materials.forEach((value, index) => {
      const entry = EntrySchema.safeParse(value);
      const course = entry.success ? parseCourseRef(entry.data.course) : undefined;
      const term = entry.success && entry.data.term ? parseTerm(entry.data.term) : undefined;
      if (!entry.success || !course || (entry.data.term && !term)) {
        rejected.push({
          sourceRecordId: `#${index}`,
          reason: !entry.success ? entry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : !course ? 'course is not institution:CODE' : 'unknown term',
          raw: value,
        });
        return;
      }
      const materialId = entry.data.id ?? `${entry.data.kind}-${Buffer.from(entry.data.url).toString('base64url').slice(-24)}`;
      records.push({
        kind: 'material',
        institution: course.institution,
        code: course.code,
        materialId,
        materialKind: entry.data.kind,
        title: entry.data.title,
        url: entry.data.url,
        ...(term ? { term } : {}),
        provenance: { source: 'materials', sourceRecordId: materialId, sourceUrl: entry.data.url, ingestedAt: context.ingestedAt },
      });
    });
    return { records, rejected };
  },
};
