import type { ComponentChildren } from 'preact';

/** Errors are the server's own message (ErrorResponse), announced to screen readers; never a blank page. */
export function ErrorNote({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A titled block of the course page that loads on its own. */
export function Panel(props: { title: string; id: string; loading?: boolean; error?: string; children?: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.loading ? <Loading what={props.title.toLowerCase()} /> : <ErrorNote message={props.error} />}
      {!props.loading && !props.error && props.children}
    </section>
  );
}
