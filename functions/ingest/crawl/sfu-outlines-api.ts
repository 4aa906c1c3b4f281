import { field, textField } from './json-keys.js';
import { PageFailed, type PageResponse, type PoliteClient, type Validators } from './polite-client.js';

/**
 * SFU's public Course Outlines API (https://www.sfu.ca/outlines/help/api.html): GET only, the path in
 * the query string with no key (`?2026/fall/cmpt/225/d100`), JSON lists at every level above the
 * outline, and a 404 for a missing object as for a bad parameter.
 */
const OUTLINES_PATH = '/bin/wcm/course-outlines';

/** One entry of a list level: `value` goes in the next URL, `text` is how SFU writes it. */
export interface ListEntry {
  value: string;
  text: string;
  /** A department's name, a course's title or a section's; absent on some. */
  title?: string;
}

export type ApiAnswer = { kind: 'found'; response: PageResponse } | { kind: 'not-modified'; response: PageResponse } | { kind: 'missing' };

export class SfuOutlinesApi {
  readonly base: string;

  constructor(
    private readonly client: PoliteClient,
    origin: string,
  ) {
    this.base = `${origin}${OUTLINES_PATH}`;
  }

  url(segments: string[]): string {
    return segments.length ? `${this.base}?${segments.map((s) => encodeURIComponent(s)).join('/')}` : this.base;
  }

  /** A level or an outline; 404 is an answer here (missing), any other failure a failed page. */
  async get(segments: string[], validators?: Validators): Promise<ApiAnswer> {
    const response = await this.client.request({ url: this.url(segments), validators });
    if (response.status === 304) return { kind: 'not-modified', response };
    if (response.status === 404) return { kind: 'missing' };
    if (response.status !== 200) throw new PageFailed(response.url, `${response.url} answered ${response.status}`, 'gave-up', response.status);
    return { kind: 'found', response };
  }
}

/** A list level's entries; anything but a JSON list of `{value, text}` is a failed page. */
export function readList(text: string, url: string): ListEntry[] {
  const value = parse(text);
  if (!Array.isArray(value)) throw new PageFailed(url, `${url} did not answer a JSON list`, 'gave-up');
  return value.flatMap((item): ListEntry[] => {
    const entry = textField(item, 'value')?.trim();
    if (!entry) return [];
    const title = textField(item, 'title') ?? textField(item, 'name');
    return [{ value: entry, text: textField(item, 'text')?.trim() || entry.toUpperCase(), ...(title?.trim() ? { title: title.trim() } : {}) }];
  });
}

/** What the catalog keeps of one section's outline (the rest of the answer is not read). */
export interface CompactOutline {
  dept?: string;
  number?: string;
  section?: string;
  title?: string;
  units?: string;
  term?: string;
  description?: string;
  notes?: string;
  designation?: string;
  deliveryMethod?: string;
  prerequisites?: string;
  corequisites?: string;
  degreeLevel?: string;
  classNumber?: string;
  instructors: string[];
  schedules: { startDate?: string; endDate?: string; campus?: string; days?: string; startTime?: string; endTime?: string; sectionCode?: string }[];
}

const INFO_FIELDS = ['dept', 'number', 'section', 'title', 'units', 'term', 'description', 'notes', 'designation', 'deliveryMethod', 'prerequisites', 'corequisites', 'degreeLevel', 'classNumber'] as const;

/** An outline answer (`{info, instructor, courseSchedule}`) as the catalog reads it; no `info` is a failed page. */
export function readOutline(text: string, url: string): CompactOutline {
  const value = parse(text);
  const info = field(value, 'info');
  if (!info || typeof info !== 'object') throw new PageFailed(url, `${url} is not an outline (no info)`, 'gave-up');
  const outline: CompactOutline = { instructors: [], schedules: [] };
  for (const name of INFO_FIELDS) {
    const found = textField(info, name);
    if (found !== undefined) outline[name] = found;
  }
  const instructors = field(value, 'instructor');
  for (const person of Array.isArray(instructors) ? instructors : []) {
    const name = textField(person, 'name')?.trim() || [textField(person, 'commonName') || textField(person, 'firstName'), textField(person, 'lastName')].filter(Boolean).join(' ').trim();
    if (name) outline.instructors.push(name);
  }
  const schedule = field(value, 'courseSchedule');
  for (const meeting of Array.isArray(schedule) ? schedule : []) {
    outline.schedules.push({
      startDate: isoDate(textField(meeting, 'startDate')),
      endDate: isoDate(textField(meeting, 'endDate')),
      campus: textField(meeting, 'campus'),
      days: textField(meeting, 'days'),
      startTime: textField(meeting, 'startTime'),
      endTime: textField(meeting, 'endTime'),
      sectionCode: textField(meeting, 'sectionCode'),
    });
  }
  return outline;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * SFU's Java dates (`Wed Sep 09 00:00:00 PDT 2026`) as the calendar date they name, read from the text
 * (never through a time zone, which could move it a day); ISO dates pass; anything else is dropped.
 */
export function isoDate(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return text.slice(0, 10);
  const match = /^(?:[A-Za-z]{3}\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+[\d:]+\s+(?:[A-Za-z+\-\d:]+\s+)?(\d{4})$/.exec(text);
  const month = match ? MONTHS.indexOf(match[1]!.toLowerCase()) : -1;
  if (!match || month < 0) return undefined;
  return `${match[3]}-${String(month + 1).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
