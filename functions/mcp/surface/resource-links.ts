import { CANONICAL_SUBJECT_SOURCE } from '../../catalog/course-ref.js';
import { expandTemplate, type Surface } from './surface-contract.js';

export interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType: string;
}

/** Enough for a host to offer the courses and rules a result is about, without doubling its size. */
export const MAX_RESOURCE_LINKS = 10;

const COURSE_REF = new RegExp(String.raw`^([a-z0-9-]+):(${CANONICAL_SUBJECT_SOURCE} \d{3,4}[A-Z]{0,2})$`);
const RULE_ID = /^[A-Za-z0-9_-]{4,80}$/;
const MAX_DEPTH = 6;

/**
 * `resource_link` blocks for the courses (`ref` / `course` fields holding a canonical reference) and
 * transfer rules (`ruleId` fields) a tool's output names, in the order they appear, at most ten, and
 * only for resources this endpoint serves.
 */
export function resourceLinksIn(data: unknown, surface: Surface): ResourceLinkContent[] {
  const templates = new Map(surface.resources.map((r) => [r.name, r.uriTemplate]));
  const courseTemplate = templates.get('course');
  const ruleTemplate = templates.get('transfer-rule');
  if (!courseTemplate && !ruleTemplate) return [];
  const links = new Map<string, ResourceLinkContent>();
  const add = (uri: string, name: string) => {
    if (links.size < MAX_RESOURCE_LINKS && !links.has(uri)) links.set(uri, { type: 'resource_link', uri, name, mimeType: 'text/markdown' });
  };
  const walk = (value: unknown, depth: number) => {
    if (links.size >= MAX_RESOURCE_LINKS || depth > MAX_DEPTH || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string') {
        const course = courseTemplate && (key === 'ref' || key === 'course') ? COURSE_REF.exec(inner) : null;
        if (course) add(expandTemplate(courseTemplate!, { institution: course[1]!, code: course[2]! }), inner);
        else if (ruleTemplate && key === 'ruleId' && RULE_ID.test(inner)) add(expandTemplate(ruleTemplate, { ruleId: inner }), `transfer rule ${inner}`);
      } else walk(inner, depth + 1);
    }
  };
  walk(data, 0);
  return [...links.values()];
}
