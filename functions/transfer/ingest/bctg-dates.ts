const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `Mon/YY` → ISO date: the first day of the month for a start, the last day for an end. Two-digit
 * years 30–99 are 19xx (the data has agreements from 1990), 00–29 are 20xx.
 */
export function parseMonthYear(value: string, edge: 'start' | 'end'): string | undefined {
  const match = /^([A-Za-z]{3})\/(\d{2})$/.exec(value.trim());
  const month = match ? MONTHS.indexOf(match[1]!.toLowerCase()) + 1 : 0;
  if (!match || !month) return undefined;
  const yy = Number(match[2]);
  const year = yy >= 30 ? 1900 + yy : 2000 + yy;
  const day = edge === 'start' ? 1 : new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** `YYYYMMDD` → `YYYY-MM-DD`, rejecting impossible dates (20250231). */
export function parseCompactDate(value: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value.trim());
  if (!match) return undefined;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}
