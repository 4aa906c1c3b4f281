import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  listeners.forEach((listener) => listener());
}

/** The current URL, re-rendering on navigation and on back/forward. */
export function useLocation(): URL {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((n) => n + 1);
    listeners.add(listener);
    window.addEventListener('popstate', listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('popstate', listener);
    };
  }, []);
  return new URL(location.href);
}

/** Same-origin links navigate in the app (no reload); modified clicks and other origins behave as links do. */
export function interceptLinks(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  // In-page links (the skip link) are the browser's: it scrolls and moves focus.
  if (!anchor || anchor.getAttribute('href')?.startsWith('#') || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
  if (/^\/(v1|mcp|oauth|\.well-known)\b/.test(anchor.pathname)) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search + anchor.hash);
}

export const coursePath = (institution: string, code: string) => `/courses/${encodeURIComponent(institution)}/${encodeURIComponent(code)}`;
