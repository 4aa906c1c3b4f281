import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, CourseFragment, Offering, SourceAdapter } from '../../catalog/catalog-model.js';
import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { combine, courseCode, distinctNames, field, mapRecords, provenance, readJson, shape, term, text } from './shared.js';

const SOURCE = 'sfu-outlines';
const INSTITUTION = 'sfu';

const optText = z.string().nullish();
const OutlineShape = z.object({
  dept: z.string(),
  number: z.string(),
  title: optText,
  units: optText,
  description: optText,
  notes: optText,
  designation: optText,
  deliveryMethod: optText,
  prerequisites: optText,
  corequisites: optText,
  degreeLevel: optText,
  offerings: z.array(z.unknown()).nullish(),
});
type Outline = z.infer<typeof OutlineShape>;

const OfferingShape = z.object({ term: z.string(), instructors: z.array(z.string()).nullish() });

/** `units` is a string ("3", "1.5", sometimes ""); anything not a plain number is unknown credit. */
export function creditsFromUnits(units: string | null | undefined): number | null {
  const value = units?.trim();
  return value && /^\d+(\.\d+)?$/.test(value) ? Number(value) : null;
}

function courseFragment(outline: Outline, context: AdapterContext): CourseFragment {
  const code = courseCode(outline.dept, outline.number);
  const designation = text(outline.designation);
  return {
    kind: 'course',
    institution: INSTITUTION,
    code,
    // The upstream outline API has no per-course public URL in this data, so none is invented.
    provenance: provenance(SOURCE, context, code),
    title: text(outline.title),
    description: text(outline.description),
    credits: creditsFromUnits(outline.units),
    prerequisitesText: text(outline.prerequisites),
    corequisitesText: text(outline.corequisites),
    notes: text(outline.notes),
    // "N/A" is SFU's way of saying "no WQB designation", not a designation.
    designation: designation === 'N/A' ? undefined : designation,
    deliveryMethod: text(outline.deliveryMethod),
    degreeLevel: text(outline.degreeLevel),
  };
}

interface OfferingItem {
  outline: Outline;
  raw: unknown;
}

function offering(item: OfferingItem, context: AdapterContext): Offering {
  const code = courseCode(item.outline.dept, item.outline.number);
  const parsed = shape(OfferingShape, item.raw);
  const canonicalTerm = term(parsed.term);
  return {
    kind: 'offering',
    institution: INSTITUTION,
    code,
    provenance: provenance(SOURCE, context, `${code} ${canonicalTerm}`),
    term: canonicalTerm,
    instructors: distinctNames(parsed.instructors ?? []),
  };
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const file = readJson(raw, context, z.array(z.unknown()));
  if (!file.ok) return file.output;
  const items = file.value;
  const courses = mapRecords(
    items,
    (item) => `${field(item, 'dept')} ${field(item, 'number')}`,
    (item) => [courseFragment(shape(OutlineShape, item), context)],
  );
  // Offerings are mapped separately so one bad offering term loses that offering, not the course;
  // outlines that failed above are skipped here so they are not rejected twice.
  const offeringItems = items.flatMap((item): OfferingItem[] => {
    const outline = OutlineShape.safeParse(item);
    if (!outline.success || !normalizeCourseCode(`${outline.data.dept} ${outline.data.number}`)) return [];
    return (outline.data.offerings ?? []).map((entry) => ({ outline: outline.data, raw: entry }));
  });
  const offerings = mapRecords(
    offeringItems,
    (item) => `${item.outline.dept} ${item.outline.number} ${field(item.raw, 'term')}`,
    (item) => [offering(item, context)],
  );
  return combine(courses, offerings);
}

export const sfuOutlinesAdapter: SourceAdapter = {
  name: SOURCE,
  description: 'SFU course outlines (sfucourses-api outlines.json): course fragments and per-term offerings with instructors',
  institutions: [INSTITUTION],
  parse,
};
