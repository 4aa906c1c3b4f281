import { useEffect, useState } from 'preact/hooks';
import { callTool, messageOf } from './api.js';

export interface ToolState<T> {
  data?: T;
  error?: string;
  loading: boolean;
}

/** Calls a tool whenever its input changes (null: not yet); a newer call wins over a slower older one. */
export function useTool<T>(tool: string, input: object | null, reloadKey = 0): ToolState<T> {
  const [state, setState] = useState<ToolState<T>>({ loading: input !== null });
  const key = input === null ? null : JSON.stringify(input);
  useEffect(() => {
    if (key === null) return setState({ loading: false });
    const abort = new AbortController();
    setState((previous) => ({ data: previous.data, loading: true }));
    callTool<T>(tool, JSON.parse(key) as object, abort.signal).then(
      (data) => !abort.signal.aborted && setState({ data, loading: false }),
      (error: unknown) => !abort.signal.aborted && setState({ error: messageOf(error), loading: false }),
    );
    return () => abort.abort();
  }, [tool, key, reloadKey]);
  return state;
}

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Tutor Nexus` : 'Tutor Nexus';
  }, [title]);
}
