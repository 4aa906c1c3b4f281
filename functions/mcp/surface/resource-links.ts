import { expandTemplate, type Surface } from './surface-contract.js';

export interface ResourceLinkContent {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType: string;
}

/** Enough for a host to offer the courses and rules a result is about, without doubling its size. */
export const MAX_RESOURCE_LINKS = 10;

const MAX_DEPTH = 6;

/**
 * `resource_link` blocks for what a tool's output names, in the order it appears, at most ten, and only
 * for resources this endpoint serves: each resource says which fields name it (`linkFrom`), such as a
 * course's `ref` or a rule's `ruleId`.
 */
export function resourceLinksIn(data: unknown, surface: Surface): ResourceLinkContent[] {
  const sources = surface.resources.flatMap((resource) => (resource.linkFrom ? [{ template: resource.uriTemplate, ...resource.linkFrom }] : []));
  if (!sources.length) return [];
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
      if (typeof inner !== 'string') {
        walk(inner, depth + 1);
        continue;
      }
      for (const source of sources) {
        const variables = source.fields.includes(key) ? source.variables(inner) : undefined;
        if (variables) {
          add(expandTemplate(source.template, variables), source.name(inner));
          break;
        }
      }
    }
  };
  walk(data, 0);
  return [...links.values()];
}
