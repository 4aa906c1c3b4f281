import { parseCourseRef, type CourseRef } from '../catalog/course-ref.js';
import { DomainError } from '../platform/domain-error.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import { catalogCacheFor } from '../catalog/catalog-cache.js';
import type { CourseBundle } from '../catalog/catalog-store.js';
import { levelOf, mergeFragments, type CourseView } from '../catalog/course-view.js';

export interface LoadedCourse {
  ref: CourseRef;
  bundle: CourseBundle;
  view: CourseView;
}

function parseCourseInput(input: string, field = 'course'): CourseRef {
  const ref = parseCourseRef(input);
  if (!ref) {
    throw DomainError.invalid(`"${input}" is not a course reference like "sfu:CMPT 225".`, [
      { field, message: 'expected institution:SUBJECT NUMBER, e.g. sfu:CMPT 225' },
    ]);
  }
  return ref;
}

/** Resolves a course reference to everything known about it, or NOT_FOUND with close matches. */
export async function loadCourse(ctx: ToolContext, input: string, field = 'course'): Promise<LoadedCourse> {
  const ref = parseCourseInput(input, field);
  const cache = catalogCacheFor(ctx.services.store);
  const bundle = await cache.getBundle(ref.institution, ref.code);
  if (!bundle) {
    const index = await cache.getIndex();
    const close = index.closeMatches(ref.institution, ref.code).map((c) => `${c.ref}${c.title ? ` (${c.title})` : ''}`);
    throw DomainError.notFound(
      `No course ${ref.ref} in the catalog.`,
      close.length ? [`Close matches: ${close.join('; ')}`] : [`Search with tn_course_search, or list institutions with tn_course_institutions.`],
    );
  }
  return { ref, bundle, view: viewOf(bundle) };
}

/** A course known only from sections or grades still gets a view, titled from those records. */
function viewOf(bundle: CourseBundle): CourseView {
  if (bundle.fragments.length) return mergeFragments(bundle.fragments);
  const [subject, number] = bundle.code.split(' ') as [string, string];
  const title = bundle.sections[0]?.title ?? bundle.grades[0]?.title ?? null;
  return {
    ref: `${bundle.institution}:${bundle.code}`,
    institution: bundle.institution,
    code: bundle.code,
    subject,
    number,
    level: levelOf(number),
    title,
    description: null,
    credits: bundle.sections[0]?.credits ?? null,
    prerequisitesText: null,
    corequisitesText: null,
    notes: null,
    designation: null,
    attributes: [],
    deliveryMethod: null,
    degreeLevel: null,
    hours: null,
    sources: [...bundle.sections, ...bundle.grades].slice(0, 1).map((r) => r.provenance),
  };
}

/** Freshness signal for confidence: 1 when ingested within a week, decaying to 0.3 over a year. */
export function freshness(ingestedAt: string | undefined, now: Date): number {
  if (!ingestedAt) return 0.3;
  const days = (now.getTime() - Date.parse(ingestedAt)) / 86_400_000;
  if (days <= 7) return 1;
  return Math.max(0.3, 1 - (days - 7) / 365);
}

/** Completeness signal: share of the listed fields that have a value. */
export function completeness(values: unknown[]): number {
  if (values.length === 0) return 0;
  return values.filter((v) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)).length / values.length;
}
