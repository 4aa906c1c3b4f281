import { useTitle } from '../use-tool.js';

export function NotFoundPage({ path }: { path: string }) {
  useTitle('Not found');
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{path}</code>. <a href="/">Search the catalog</a> instead.
      </p>
    </section>
  );
}
