import { useEffect, useState } from 'preact/hooks';
import { callTool, signedIn as isSignedIn } from './api.js';

const KEY = 'tn-completed-courses';

export interface Completed {
  course: string;
  grade?: string;
}

/** "CMPT 125 B+" → the course and its grade; a grade is what minimum-grade prerequisites are checked against. */
export function parseCompleted(entry: string): Completed {
  const match = /^(.*?\d{3,4}[A-Z]?)\s+([A-F][+-]?|P|S|\d{1,3}%)$/i.exec(entry.trim());
  return match ? { course: match[1]!, grade: match[2]!.toUpperCase() } : { course: entry.trim() };
}

const entryOf = (c: Completed) => (c.grade ? `${c.course} ${c.grade}` : c.course);

function readLocal(): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * "Courses I have done": in the user's preferences when signed in (so the CLI and other browsers see
 * them too), otherwise in this browser.
 */
export function useCompletedCourses(): [string[], (next: string[]) => void, string | undefined] {
  const signedIn = isSignedIn();
  const [courses, setCourses] = useState<string[]>(signedIn ? [] : readLocal);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!signedIn) return;
    callTool<{ completedCourses: Completed[] }>('tn_user_preferences_get').then(
      (preferences) => setCourses(preferences.completedCourses.map(entryOf)),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [signedIn]);
  const update = (next: string[]) => {
    const unique = [...new Set(next.map((c) => c.trim().replace(/\s+/g, ' ').toUpperCase()).filter(Boolean))];
    setCourses(unique);
    if (!signedIn) return localStorage.setItem(KEY, JSON.stringify(unique));
    callTool('tn_user_preferences_set', { completedCourses: unique.map(parseCompleted) }).then(
      () => setError(undefined),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return [courses, update, error];
}
