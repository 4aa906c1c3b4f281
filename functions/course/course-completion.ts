import { SUBJECT_SOURCE } from '../catalog/course-ref.js';
import { INSTITUTIONS, institutionId } from '../catalog/institutions.js';
import type { CompletionKind } from '../mcp/surface/surface-contract.js';
import type { Completion, Completer } from '../mcp/surface/completion.js';
import { catalogCacheFor } from '../catalog/catalog-cache.js';

/** The protocol's cap on values per completion. */
const MAX_VALUES = 100;

/**
 * Completes institution slugs and course references from the warm search index: prefix lookups on a
 * sorted list, no store round trip once the index is built (the first call of a cold process builds it).
 */
export const completeFromCatalog: Completer = async (services, kind, value, context) => {
  const index = await catalogCacheFor(services.store).getIndex();
  const slugs = () => [...new Set([...INSTITUTIONS.map((i) => i.id), ...index.institutions])].sort();
  const complete = (what: Exclude<CompletionKind, 'course-list'>, typed: string): Completion => {
    if (what === 'institution') return institutions(slugs(), typed);
    if (what === 'course-code') {
      const institution = context.institution ? institutionId(context.institution) : undefined;
      if (!institution) return { values: [] };
      const found = index.refsStartingWith(`${institution}:${codePrefix(typed)}`, MAX_VALUES);
      return { values: found.refs.map((ref) => ref.slice(institution.length + 1)), total: found.total, hasMore: found.total > found.refs.length };
    }
    const separator = typed.indexOf(':');
    // Before the colon the person is still choosing the institution.
    if (separator < 0) return { values: institutions(slugs(), typed).values.map((slug) => `${slug}:`) };
    const institution = institutionId(typed.slice(0, separator));
    const found = index.refsStartingWith(`${institution}:${codePrefix(typed.slice(separator + 1))}`, MAX_VALUES);
    return { values: found.refs, total: found.total, hasMore: found.total > found.refs.length };
  };
  if (kind !== 'course-list') return complete(kind, value);
  // The whole argument is replaced by the chosen value, so earlier items are kept in front of it.
  const items = value.split(',');
  const last = items.pop()!.trim();
  const head = items.map((item) => item.trim()).filter(Boolean);
  const found = complete('course', last);
  return { ...found, values: found.values.map((ref) => [...head, ref].join(', ')) };
};

function institutions(slugs: string[], typed: string): Completion {
  const wanted = typed.trim().toLowerCase();
  const matches = slugs.filter((slug) => {
    if (slug.startsWith(wanted)) return true;
    const known = INSTITUTIONS.find((i) => i.id === slug);
    return Boolean(known && [known.bctgCode ?? '', known.name, ...known.aliases].some((alias) => alias.toLowerCase().startsWith(wanted)));
  });
  return { values: matches.slice(0, MAX_VALUES), total: matches.length, hasMore: matches.length > MAX_VALUES };
}

const TYPED_CODE = new RegExp(String.raw`^(${SUBJECT_SOURCE}) ?-?(\d.*)$`);

/** What was typed of a code, in the index's form: `cmpt2` → `CMPT 2`, `cmpt ` → `CMPT `. */
export function codePrefix(typed: string): string {
  const compact = typed.trimStart().replace(/\s+/g, ' ').toUpperCase();
  const match = TYPED_CODE.exec(compact);
  return match ? `${match[1]} ${match[2]}` : compact;
}
