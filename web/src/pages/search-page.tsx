import type { institutionsContract } from '../../../functions/course/contracts/institutions.js';
import type { searchContract } from '../../../functions/course/contracts/search.js';
import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../components/status.js';
import { coursePath, navigate } from '../router.js';
import { useTitle, useTool } from '../use-tool.js';
import { SourceFreshnessNote } from '../components/source-freshness.js';

type Hit = ToolOutput<typeof searchContract>['items'][number];

/** `sfu:CMPT 225` → the course page's path. */
export const hrefOfRef = (ref: string) => {
  const at = ref.indexOf(':');
  return coursePath(ref.slice(0, at), ref.slice(at + 1));
};

/** What a search asks for, as the URL carries it (`/?q=…&institution=…&subject=…&level=…&term=…`). */
export interface SearchFilters {
  institution: string;
  subject: string;
  level: string;
  term: string;
}

const FILTER_NAMES = ['institution', 'subject', 'level', 'term'] as const;
const LEVELS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export const filtersOf = (params: URLSearchParams): SearchFilters =>
  Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name)?.trim() ?? ''])) as unknown as SearchFilters;

/** The search's URL: empty fields left out, so a plain search stays `/?q=…`. */
export function searchHref(query: string, filters: SearchFilters): string {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  for (const name of FILTER_NAMES) if (filters[name]) params.set(name, filters[name]);
  const search = params.toString();
  return search ? `/?${search}` : '/';
}

/** The tool's input: the subject upper-cased as stored, the level a number. */
function searchInput(query: string, filters: SearchFilters) {
  return {
    query,
    limit: 25,
    ...(filters.institution ? { institution: filters.institution } : {}),
    ...(filters.subject ? { subject: filters.subject.toUpperCase() } : {}),
    ...(filters.level ? { level: Number(filters.level) } : {}),
    ...(filters.term ? { term: filters.term } : {}),
  };
}

export function SearchPage({ params }: { params: URLSearchParams }) {
  const query = params.get('q') ?? '';
  const filters = filtersOf(params);
  useTitle(query ? `Search: ${query}` : '');
  const [text, setText] = useState(query);
  const [draft, setDraft] = useState(filters);
  const href = searchHref(query, filters);
  const [lastHref, setLastHref] = useState(href);
  // Back/forward changes the search in the URL: follow it.
  if (href !== lastHref) {
    setLastHref(href);
    setText(query);
    setDraft(filters);
  }
  const results = useTool<ToolOutput<typeof searchContract>>('tn_course_search', query ? searchInput(query, filters) : null);
  const institutions = useTool<ToolOutput<typeof institutionsContract>>('tn_course_institutions', { limit: 100 });
  const go = (next: SearchFilters) => navigate(searchHref(text.trim(), next));
  const submit = (event: Event) => {
    event.preventDefault();
    go(draft);
  };
  // A choice from a list applies at once when there is something to search; typed fields on Enter.
  const choose = (name: 'institution' | 'level', value: string) => {
    const next = { ...draft, [name]: value };
    setDraft(next);
    if (text.trim()) go(next);
  };
  const type = (name: 'subject' | 'term', value: string) => setDraft({ ...draft, [name]: value });
  const activeFilters = FILTER_NAMES.filter((name) => filters[name]).length;
  const catalogs = (institutions.data?.items ?? []).filter((institution) => (institution.courses ?? 0) > 0);
  return (
    <>
      <h1>Search the course catalog</h1>
      <form role="search" onSubmit={submit}>
        <div class="row">
          <div>
            <label for="q">Course, code or topic</label>
            <input id="q" type="search" name="q" value={text} placeholder="e.g. data structures, CMPT 225" onInput={(e) => setText(e.currentTarget.value)} />
          </div>
          <button type="submit">Search</button>
        </div>
        {/* Folded unless a filter is set, so the keyboard reaches the results right after the search button. */}
        <details class="filters" open={activeFilters > 0}>
          <summary>Narrow the search{activeFilters > 0 ? ` (${activeFilters} set)` : ''}</summary>
          <fieldset class="row">
            <legend class="visually-hidden">Filters</legend>
            <div>
              <label for="institution">Institution</label>
              <select id="institution" value={draft.institution} onChange={(e) => choose('institution', e.currentTarget.value)}>
                <option value="">Any institution</option>
                {catalogs.map((institution) => (
                  <option key={institution.id} value={institution.id}>
                    {institution.name}
                  </option>
                ))}
                {draft.institution && !catalogs.some((institution) => institution.id === draft.institution) && <option value={draft.institution}>{draft.institution}</option>}
              </select>
            </div>
            <div>
              <label for="subject">Subject</label>
              <input id="subject" name="subject" size={8} value={draft.subject} placeholder="e.g. CMPT" onInput={(e) => type('subject', e.currentTarget.value)} />
            </div>
            <div>
              <label for="level">Year level</label>
              <select id="level" value={draft.level} onChange={(e) => choose('level', e.currentTarget.value)}>
                <option value="">Any level</option>
                {LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {level}00-level
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label for="term">Offered in term</label>
              <input id="term" name="term" size={12} value={draft.term} placeholder="e.g. 2026-spring" onInput={(e) => type('term', e.currentTarget.value)} />
            </div>
          </fieldset>
        </details>
      </form>
      <SourceFreshnessNote listing={institutions.data} />
      {query && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results for “{query}”</h2>
          {results.loading && <Loading what="results" />}
          <ErrorNote message={results.error} />
          {results.data && !results.loading && <ResultList hits={results.data.items} />}
        </section>
      )}
      {!query && <p class="muted">Search SFU, UBC, UVic and Langara courses by title, description or code, within one institution, subject, year level or term if you like. Press Enter to search.</p>}
    </>
  );
}

function ResultList({ hits }: { hits: Hit[] }) {
  if (!hits.length) return <p>No course matches. Try fewer or other words.</p>;
  return (
    <ol class="results">
      {hits.map((hit) => {
        const code = hit.ref.slice(hit.ref.indexOf(':') + 1);
        return (
          <li key={hit.ref}>
            <a href={hrefOfRef(hit.ref)}>
              <span class="code">{code}</span>
              {hit.title ?? 'Untitled course'}
            </a>{' '}
            <span class="muted">
              · {hit.institution.toUpperCase()}
              {hit.credits !== null ? ` · ${hit.credits} credits` : ''}
            </span>
            {hit.snippet && <div class="muted">{hit.snippet}</div>}
          </li>
        );
      })}
    </ol>
  );
}
