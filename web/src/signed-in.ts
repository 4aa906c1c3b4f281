import { useEffect, useState } from 'preact/hooks';
import { signedIn } from './api.js';

/** Whether this browser is signed in (its session cookie), following sign-in and sign-out on any page. */
export function useSignedIn(): boolean {
  const [isSignedIn, setSignedIn] = useState(signedIn);
  useEffect(() => {
    const onAuth = () => setSignedIn(signedIn());
    window.addEventListener('tn-auth', onAuth);
    return () => window.removeEventListener('tn-auth', onAuth);
  }, []);
  return isSignedIn;
}

const RETURN_KEY = 'tn-return-to';

/**
 * A path in this app to come back to after signing in or adding a key (`/settings?return=/tutor…`),
 * kept through the sign-in redirect; a visit to Settings without one (and not returning from sign-in)
 * forgets an older one.
 */
export function rememberReturn(params: URLSearchParams): string | null {
  const path = params.get('return');
  const valid = path && /^\/(?![/\\])/.test(path) ? path : null;
  if (valid) sessionStorage.setItem(RETURN_KEY, valid);
  else if (!params.has('code') && !params.has('error')) clearReturn();
  return valid;
}

export function returnPath(): string | null {
  return sessionStorage.getItem(RETURN_KEY);
}

export function clearReturn(): void {
  sessionStorage.removeItem(RETURN_KEY);
}

/** The Settings page, coming back here afterwards. */
export const settingsLink = (back: string) => `/settings?return=${encodeURIComponent(back)}`;
