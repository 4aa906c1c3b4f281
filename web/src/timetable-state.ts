/** What the timetable page shows, as its URL carries it: `/timetable?term=…&courses=…&before=…&after=…&off=…&rank=…&option=…`. */
export interface TimetableState {
  term: string;
  courses: string[];
  notBefore: string;
  notAfter: string;
  daysOff: string[];
  rank: string;
  /** 1-based: which combination of the ranked list is shown. */
  option: number;
}

export const WEEKDAYS = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
] as const;

const list = (value: string | null) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

export function timetableStateOf(params: URLSearchParams): TimetableState {
  const option = Number(params.get('option'));
  return {
    term: params.get('term')?.trim() ?? '',
    courses: [...new Set(list(params.get('courses')))],
    notBefore: params.get('before')?.trim() ?? '',
    notAfter: params.get('after')?.trim() ?? '',
    daysOff: list(params.get('off')).filter((day) => WEEKDAYS.some(([code]) => code === day)),
    rank: params.get('rank')?.trim() ?? '',
    option: Number.isInteger(option) && option > 0 ? option : 1,
  };
}

/** The page's URL: empty choices left out, so a plain page stays `/timetable`. */
export function timetableHref(state: TimetableState): string {
  const params = new URLSearchParams();
  if (state.term) params.set('term', state.term);
  if (state.courses.length) params.set('courses', state.courses.join(','));
  if (state.notBefore) params.set('before', state.notBefore);
  if (state.notAfter) params.set('after', state.notAfter);
  if (state.daysOff.length) params.set('off', state.daysOff.join(','));
  if (state.rank) params.set('rank', state.rank);
  if (state.option > 1) params.set('option', String(state.option));
  const search = params.toString();
  return search ? `/timetable?${search}` : '/timetable';
}

/** The tool's input for a state, or null while there is no course. */
export function timetableInput(state: TimetableState) {
  if (!state.courses.length) return null;
  return {
    courses: state.courses,
    limit: 100,
    ...(state.term ? { term: state.term } : {}),
    ...(state.notBefore ? { notBefore: state.notBefore } : {}),
    ...(state.notAfter ? { notAfter: state.notAfter } : {}),
    ...(state.daysOff.length ? { daysOff: state.daysOff } : {}),
    ...(state.rank ? { rank: state.rank } : {}),
  };
}

const SEASONS = ['spring', 'summer', 'fall'] as const;

/** Terms a student may plan: last year's to next year's, newest first, with any the data adds. */
export function termChoices(extra: string[], today = new Date()): string[] {
  const year = today.getFullYear();
  const around = [year + 1, year, year - 1].flatMap((y) => [...SEASONS].reverse().map((season) => `${y}-${season}`));
  const order = (term: string) => Number(term.slice(0, 4)) * 10 + ['spring', 'summer', 'fall', 'winter'].indexOf(term.slice(5));
  return [...new Set([...extra, ...around])].sort((a, b) => order(b) - order(a));
}

export function termLabel(term: string): string {
  const [year, season] = term.split('-') as [string, string | undefined];
  if (!season) return term;
  if (season === 'winter') return `Winter Session ${year}-${Number(year) + 1}`;
  return `${season.charAt(0).toUpperCase()}${season.slice(1)} ${year}`;
}

const CODE = /(?:([A-Za-z][\w-]*):\s*)?([A-Za-z]{2,5}(?:-[A-Za-z]{1,3})?)\s*-?\s*(\d{3,4}[A-Za-z]{0,2})\b/g;

/**
 * The course references in what a student typed: "CMPT 225, MACM 201", "cmpt225 macm201" or
 * "sfu:CMPT 225"; codes without "institution:" take `institution`. `rest` is what was not a code.
 */
export function coursesIn(text: string, institution: string): { refs: string[]; rest: string } {
  const refs = [...text.matchAll(CODE)].map(([, school, subject, number]) => `${(school ?? institution).toLowerCase()}:${subject!.toUpperCase()} ${number!.toUpperCase()}`);
  return { refs, rest: text.replace(CODE, ' ').replace(/[\s,;]+/g, ' ').trim() };
}
