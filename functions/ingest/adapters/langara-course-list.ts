import * as z from 'zod/v4';
import type { AdapterContext, AdapterOutput, CourseFragment } from '../../catalog/catalog-model.js';
import { combine, field, mapRecords, readJson } from './shared.js';

/**
 * The langara-course-api files that list courses under one key (`{ "courses": [...] }`,
 * `{ "attributes": [...] }`): one course fragment per row, each row identified by subject and code.
 */
export function parseLangaraCourseList(listKey: string, toFragment: (item: unknown, context: AdapterContext) => CourseFragment) {
  return (raw: string, context: AdapterContext): AdapterOutput => {
    const file = readJson(raw, context, z.object({ [listKey]: z.array(z.unknown()) }));
    if (!file.ok) return file.output;
    return combine(
      mapRecords(
        file.value[listKey]!,
        (item) => `${field(item, 'subject')} ${field(item, 'course_code')}`,
        (item) => [toFragment(item, context)],
      ),
    );
  };
}
