import { useState } from 'preact/hooks';
import { ErrorNote, Loading } from '../components/status.js';
import { coursePath, navigate } from '../router.js';
import { useTitle, useTool } from '../use-tool.js';

interface Hit {
  ref: string;
  title: string | null;
  credits: number | null;
  institution: string;
  snippet: string | null;
}

/** `sfu:CMPT 225` → the course page's path. */
export const hrefOfRef = (ref: string) => {
  const at = ref.indexOf(':');
  return coursePath(ref.slice(0, at), ref.slice(at + 1));
};

export function SearchPage({ query }: { query: string }) {
  useTitle(query ? `Search: ${query}` : '');
  const [text, setText] = useState(query);
  const [lastQuery, setLastQuery] = useState(query);
  // Back/forward changes the query in the URL: follow it.
  if (query !== lastQuery) {
    setLastQuery(query);
    setText(query);
  }
  const results = useTool<{ items: Hit[]; totalCount?: number }>('tn_course_search', query ? { query, limit: 25 } : null);
  const submit = (event: Event) => {
    event.preventDefault();
    const q = text.trim();
    navigate(q ? `/?q=${encodeURIComponent(q)}` : '/');
  };
  return (
    <>
      <h1>Search the course catalog</h1>
      <form role="search" class="row" onSubmit={submit}>
        <div>
          <label for="q">Course, code or topic</label>
          <input id="q" type="search" name="q" value={text} placeholder="e.g. data structures, CMPT 225" onInput={(e) => setText(e.currentTarget.value)} />
        </div>
        <button type="submit">Search</button>
      </form>
      {query && (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results for “{query}”</h2>
          {results.loading && <Loading what="results" />}
          <ErrorNote message={results.error} />
          {results.data && !results.loading && <ResultList hits={results.data.items} />}
        </section>
      )}
      {!query && <p class="muted">Search SFU, UBC and Langara courses by title, description or code. Press Enter to search.</p>}
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
