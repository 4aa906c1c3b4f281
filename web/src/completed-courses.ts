import { useEffect, useState } from 'preact/hooks';

const KEY = 'tn-completed-courses';

function read(): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

export interface Completed {
  course: string;
  grade?: string;
}

/** "CMPT 125 B+" → the course and its grade; a grade is what minimum-grade prerequisites are checked against. */
export function parseCompleted(entry: string): Completed {
  const match = /^(.*?\d{3,4}[A-Z]?)\s+([A-F][+-]?|P|S|\d{1,3}%)$/i.exec(entry.trim());
  return match ? { course: match[1]!, grade: match[2]!.toUpperCase() } : { course: entry.trim() };
}

/** "Courses I have done", shared by every course page (and tabs, through the storage event). */
export function useCompletedCourses(): [string[], (next: string[]) => void] {
  const [courses, setCourses] = useState(read);
  useEffect(() => {
    const onStorage = (event: StorageEvent) => event.key === KEY && setCourses(read());
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const update = (next: string[]) => {
    const unique = [...new Set(next.map((c) => c.trim().replace(/\s+/g, ' ').toUpperCase()).filter(Boolean))];
    localStorage.setItem(KEY, JSON.stringify(unique));
    setCourses(unique);
  };
  return [courses, update];
}
