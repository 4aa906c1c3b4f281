import { useEffect } from 'preact/hooks';
import { callTool, signedIn } from './api.js';

export type Theme = 'system' | 'light' | 'dark';

/** Applied at once and remembered, so the next first paint (index.html's inline script) already has it. */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem('tn-theme', theme);
  } catch {
    // storage disabled: the theme still applies to this page
  }
}

/** A signed-in user's theme lives in their preferences: follow it on load and after signing in. */
export function useSyncedTheme(): void {
  useEffect(() => {
    const sync = () => {
      if (!signedIn()) return;
      callTool<{ theme: Theme }>('tn_user_preferences_get').then(
        (preferences) => applyTheme(preferences.theme),
        () => undefined, // a stale token shows up on the settings page, not here
      );
    };
    sync();
    window.addEventListener('tn-auth', sync);
    return () => window.removeEventListener('tn-auth', sync);
  }, []);
}
