/**
 * Canonical terms: `<year>-<season>`, season one of spring (Jan-Apr), summer (May-Aug), fall
 * (Sep-Dec), or winter for UBC's Winter Session (Sep-Apr, named by the year it starts: `2024W`).
 */
type Season = 'spring' | 'summer' | 'fall' | 'winter';

const SEASON_ORDER: Record<Season, number> = { spring: 1, summer: 2, fall: 3, winter: 3.5 };
const LANGARA_SEMESTER: Record<string, Season> = { '10': 'spring', '20': 'summer', '30': 'fall' };
const UBC_SESSION: Record<string, Season> = { W: 'winter', S: 'summer' };

/**
 * Accepts `2025-fall`, `Fall 2025`, `fall2025`, `2025 Fall`, Langara's `202530`, and UBC's `2024W`.
 * Returns undefined for anything else.
 */
export function parseTerm(input: string): string | undefined {
  const text = input.trim().toLowerCase().replace(/[\s_]+/g, ' ');
  let match = /^(\d{4})\s*-?\s*(spring|summer|fall|autumn|winter)$/.exec(text) ?? undefined;
  if (match) return canonical(match[1]!, match[2]!);
  match = /^(spring|summer|fall|autumn|winter)\s*-?\s*(\d{4})$/.exec(text) ?? undefined;
  if (match) return canonical(match[2]!, match[1]!);
  match = /^(\d{4})(10|20|30)$/.exec(text) ?? undefined;
  if (match) return `${match[1]}-${LANGARA_SEMESTER[match[2]!]}`;
  match = /^(\d{4})\s*([ws])$/.exec(text) ?? undefined;
  if (match) return `${match[1]}-${UBC_SESSION[match[2]!.toUpperCase()]}`;
  return undefined;
}

function canonical(year: string, season: string): string {
  const normalized = season === 'autumn' ? 'fall' : season;
  return `${year}-${normalized}`;
}

/** Sort key so terms order chronologically (`2025-fall` before `2026-spring`). */
export function termOrder(term: string): number {
  const [year, season] = term.split('-') as [string, Season];
  return Number(year) * 10 + (SEASON_ORDER[season] ?? 0);
}

export function termLabel(term: string): string {
  const [year, season] = term.split('-') as [string, Season];
  if (season === 'winter') return `Winter Session ${year}-${Number(year) + 1}`;
  return `${season.charAt(0).toUpperCase()}${season.slice(1)} ${year}`;
}

/** The spring, summer or fall term a date falls in (Jan–Apr, May–Aug, Sep–Dec), as trimester institutions such as SFU count them. */
export function trimesterAt(at: Date): string {
  return `${at.getUTCFullYear()}-${(['spring', 'summer', 'fall'] as const)[Math.floor(at.getUTCMonth() / 4)]}`;
}
