import { readFileSync } from 'node:fs';
import { json, ReplayOrigin, validatorsFor, type Answer } from './replay-server.js';

/**
 * The BC Transfer Guide replayed on 127.0.0.1 the way the real site answers (research note
 * live-sources.md, docs/crawling.md): the v1.7 agreement service on its own origin (PascalCase), the
 * v1.8 `/tcs/` service on another (camelCase), the WordPress site with its search nonce in the home
 * page's `c2c-home-filters` element and the search page's `c2c-search-filters`, and the search itself:
 * POST only, the nonce in `_wpnonce`, a form (or JSON) body, 20 agreements a page grouped by sending
 * course, `currentPage` a string. A bad or lapsed nonce is WordPress's 403 `rest_cookie_invalid_nonce`.
 *
 * Rows are real: Alexander College's agreements as the web API returned them (June 2025), Langara's
 * ABST sample page, and Langara's CPSC rows of October 2023 (PDF-derived) in the API's shape.
 */

export interface Agreement extends Record<string, unknown> {
  Id: number;
  SndrSubjectCode: string;
  SndrCourseNumber: string;
  RcvrInstitutionCode: string;
  Detail: string;
}

interface BctgInstitutionRow {
  Id: number;
  Code: string;
  Title: string;
}

export interface BctgFixture {
  institutions: BctgInstitutionRow[];
  subjects: Map<number, { Id: number; Code: string; Title: string }[]>;
  /** By `<institution id>:<subject id>`. */
  agreements: Map<string, Agreement[]>;
}

const DATA = 'data/sample/bctransferguide';
const PAGE_LENGTH = 20;

/** Alexander College's subjects kept (the whole file makes the suite slower for nothing it proves). */
const ALEX_SUBJECTS = ['BUEC', 'CPSC', 'EDUC', 'FREN', 'GEOG', 'GSWS', 'SPAN', 'STAT'];

export function bctgFixture(): BctgFixture {
  const alex = (JSON.parse(readFileSync(`${DATA}/alexander-college-transfers-2025-06.json`, 'utf8')) as Agreement[]).filter((a) => ALEX_SUBJECTS.includes(a.SndrSubjectCode));
  const sample = JSON.parse(readFileSync(`${DATA}/bctg-search-from-response-sample.json`, 'utf8')) as { courses: { agreements: Record<string, unknown>[] }[] };
  // The scraper's own `id` key is no part of the API.
  const abst = sample.courses.flatMap((c) => c.agreements).map(({ id: _added, ...a }) => a as Agreement);
  const langara = (JSON.parse(readFileSync(`${DATA}/langara-transfers-2023-10.json`, 'utf8')) as { courses: PdfRow[] }).courses.filter((r) => r.subject === 'CPSC');
  const langaraCpsc = langara.map((row, i) => apiShapeOf(row, 700_000 + i));

  const institutions: BctgInstitutionRow[] = [
    { Id: 10020, Code: 'ALEX', Title: 'Alexander College' },
    { Id: 15, Code: 'LANG', Title: 'Langara College' },
    { Id: 24, Code: 'SFU', Title: 'Simon Fraser University' },
    { Id: 2110, Code: 'YVU', Title: 'Yorkville University' },
  ];
  const subjects = new Map<number, { Id: number; Code: string; Title: string }[]>();
  const agreements = new Map<string, Agreement[]>();
  const alexSubjects = ALEX_SUBJECTS.map((code, i) => ({ Id: 1000 + i, Code: code, Title: `${code} (Alexander College)` }));
  subjects.set(10020, alexSubjects);
  for (const subject of alexSubjects) agreements.set(`10020:${subject.Id}`, alex.filter((a) => a.SndrSubjectCode === subject.Code));
  subjects.set(15, [
    { Id: 501, Code: 'ABST', Title: 'Aboriginal Studies' },
    { Id: 531, Code: 'CPSC', Title: 'Computer Science' },
    // Listed, with no agreement: its search answers an empty page.
    { Id: 560, Code: 'DANC', Title: 'Dance' },
  ]);
  agreements.set('15:501', abst);
  agreements.set('15:531', langaraCpsc);
  subjects.set(24, []);
  subjects.set(2110, []);
  return { institutions, subjects, agreements };
}

interface PdfRow {
  subject: string;
  course_code: number | string;
  source: string;
  destination: string;
  credit: string;
  effective_start: string;
  effective_end: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A PDF-derived row in the web API's agreement shape (its Detail holds the merged detail and condition). */
function apiShapeOf(row: PdfRow, id: number): Agreement {
  const date = (text: string, end: boolean) => {
    const [month, yy] = text.split('/') as [string, string];
    const year = Number(yy) > 50 ? 1900 + Number(yy) : 2000 + Number(yy);
    const m = MONTHS.indexOf(month);
    const day = end ? new Date(Date.UTC(year, m + 1, 0)).getUTCDate() : 1;
    return `${year}${String(m + 1).padStart(2, '0')}${String(day).padStart(2, '0')}`;
  };
  return {
    Id: id,
    SndrInstitutionID: 15,
    SndrInstitutionCode: 'LANG',
    SndrInstitutionName: 'Langara College',
    SndrSubjectCode: row.subject,
    SndrCourseNumber: String(row.course_code),
    SndrCourseCredit: 3,
    SndrCourseTitle: null,
    RcvrInstitutionCode: row.destination,
    RcvrInstitutionName: row.destination,
    Detail: row.credit,
    Condition: null,
    StartDate: date(row.effective_start, false),
    EndDate: row.effective_end.toLowerCase() === 'present' ? null : date(row.effective_end, true),
  };
}

export interface BctgReplayOptions {
  /** The v1.7 service is gone (404), as the newest scrapers suggest it may be. */
  wsRetired?: boolean;
  /** The search answers camelCase keys (a casing change suspected on the newer service). */
  camelCaseSearch?: boolean;
  /** The home page lost its nonce element: the search page still has one. */
  nonceOnlyOnSearchPage?: boolean;
  /** The lists answer without ETag or Last-Modified. */
  noValidators?: boolean;
}

export class BctgReplay {
  readonly www: ReplayOrigin;
  readonly ws: ReplayOrigin;
  readonly api: ReplayOrigin;
  nonce = '';
  private nonces = 0;
  private readonly changedAt = new Map<string, Date>();
  private readonly started = new Date('2026-01-15T10:00:00Z');

  constructor(
    readonly fixture: BctgFixture = bctgFixture(),
    readonly options: BctgReplayOptions = {},
  ) {
    this.rotateNonce();
    this.www = new ReplayOrigin('www', (request) => this.site(request));
    this.ws = new ReplayOrigin('ws', (request) => (this.options.wsRetired ? undefined : this.service(request, '/api/custom/ui/v1.7/agreementws/', 'pascal')));
    this.api = new ReplayOrigin('api', (request) => this.service(request, '/tcs/custom/ui/v1.8/agreementws/', 'camel'));
  }

  async start(): Promise<Record<string, string>> {
    await Promise.all([this.www.start(), this.ws.start(), this.api.start()]);
    return this.env();
  }

  env(): Record<string, string> {
    return { TN_BCTG_ORIGIN: this.www.origin, TN_BCTG_WS_ORIGIN: this.ws.origin, TN_BCTG_API_ORIGIN: this.api.origin };
  }

  async close(): Promise<void> {
    await Promise.all([this.www.close(), this.ws.close(), this.api.close()]);
  }

  /** The nonce lapses (WordPress's tick moved on): searches with the old one are refused. */
  rotateNonce(): void {
    this.nonces++;
    this.nonce = (0x2acb3bba88 + this.nonces * 7919).toString(16).slice(-10);
  }

  /** The nonce lapses just before the n-th search from now (WordPress's tick moving on mid-crawl). */
  rotateNonceBeforeSearch(n: number): void {
    this.searchesUntilRotation = n;
  }

  private searchesUntilRotation = 0;

  /** An agreement's wording changes upstream. */
  changeAgreement(id: number, change: Partial<Agreement>): void {
    for (const list of this.fixture.agreements.values()) {
      const found = list.find((a) => a.Id === id);
      if (found) Object.assign(found, change);
    }
  }

  /** Every search request, with its form decoded. */
  searches(): { nonce: string | null; form: Record<string, string>; status?: number }[] {
    return this.www.log
      .filter((r) => r.url.startsWith('/wp-json/'))
      .map((r) => ({ nonce: new URL(r.url, 'http://x').searchParams.get('_wpnonce'), form: formOf(r.body, String(r.headers['content-type'] ?? '')), status: r.status }));
  }

  private site({ method, path, query, headers, body }: { method: string; path: string; query: string; headers: Record<string, string | string[] | undefined>; body: string }): Answer | undefined {
    if (method === 'GET' && path === '/') {
      const filters = this.options.nonceOnlyOnSearchPage ? '<div id="c2c-home-filters" class="c2c-filters">' : `<div id="c2c-home-filters" class="c2c-filters" nonce="${this.nonce}" data-lang="en">`;
      return html(`<!doctype html><html><head><title>BC Transfer Guide</title></head><body>${filters}</div></body></html>`);
    }
    if (method === 'GET' && path === '/transfer-options/search-courses/') {
      return html(`<!doctype html><html><body><form><div id="c2c-search-filters" nonce="${this.nonce}"></div></form></body></html>`);
    }
    if (path !== '/wp-json/bctg-search/course-to-course/search-from') return undefined;
    // WordPress registers the route for POST only: a GET has no route.
    if (method !== 'POST') return undefined;
    if (this.searchesUntilRotation > 0 && --this.searchesUntilRotation === 0) this.rotateNonce();
    const nonce = new URLSearchParams(query).get('_wpnonce') ?? String(headers['x-wp-nonce'] ?? '');
    if (nonce !== this.nonce) return { status: 403, body: JSON.stringify({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } }) };
    const form = formOf(body, String(headers['content-type'] ?? ''));
    return json(this.searchAnswer(Number(form.sender), Number(form.subjectId), Number(form.pageNumber ?? '1')));
  }

  private searchAnswer(sender: number, subjectId: number, pageNumber: number) {
    const institution = this.fixture.institutions.find((i) => i.Id === sender);
    const rows = [...(this.fixture.agreements.get(`${sender}:${subjectId}`) ?? [])].sort(
      (a, b) => a.SndrCourseNumber.localeCompare(b.SndrCourseNumber, 'en', { numeric: true }) || a.RcvrInstitutionCode.localeCompare(b.RcvrInstitutionCode) || a.Id - b.Id,
    );
    const totalPages = Math.ceil(rows.length / PAGE_LENGTH);
    const slice = rows.slice((pageNumber - 1) * PAGE_LENGTH, pageNumber * PAGE_LENGTH);
    const courses: Record<string, unknown>[] = [];
    for (const agreement of slice) {
      const last = courses.at(-1);
      const shaped = this.options.camelCaseSearch ? camel(agreement) : agreement;
      if (last && last.SndrCourseNumber === agreement.SndrCourseNumber) (last.agreements as unknown[]).push(shaped);
      else {
        const course = {
          agreements: [shaped],
          SndrInstitutionID: sender,
          SndrInstitutionCode: institution?.Code,
          SndrInstitutionName: institution?.Title,
          SndrSubjectCode: agreement.SndrSubjectCode,
          SndrCourseNumber: agreement.SndrCourseNumber,
          SndrCourseCredit: agreement.SndrCourseCredit ?? null,
          SndrCourseID: agreement.SndrCourseID ?? null,
        };
        courses.push(course);
      }
    }
    const shapedCourses = this.options.camelCaseSearch ? courses.map((c) => ({ ...camel(c), agreements: c.agreements })) : courses;
    return {
      courseDetail: `${institution?.Code ?? ''}   (1995 onwards)`,
      courses: shapedCourses,
      currentPage: String(pageNumber),
      totalPages,
      totalAgreements: rows.length,
      pageLength: PAGE_LENGTH,
      pageFrom: (pageNumber - 1) * PAGE_LENGTH + 1,
      pageTo: Math.min(pageNumber * PAGE_LENGTH, rows.length),
    };
  }

  private service({ method, path, query }: { method: string; path: string; query: string }, prefix: string, casing: 'pascal' | 'camel'): Answer | undefined {
    if (method !== 'GET' || !path.startsWith(prefix)) return undefined;
    const name = path.slice(prefix.length);
    const params = new URLSearchParams(query);
    const shape = (row: Record<string, unknown>) => (casing === 'camel' ? camel(row) : row);
    let value: unknown;
    if (name === 'GetFromInstitutions') {
      value = this.fixture.institutions.map((i) => shape({ CountryId: 40, CountryName: 'Canada', CountryShortName: 'Canada', Alias: null, Type: 'BC', ...i, SISID: null }));
    } else if (name === 'GetSubjects' && params.get('sending') === 'true') {
      const id = Number(params.get('institutionID') ?? params.get('institutionId'));
      value = (this.fixture.subjects.get(id) ?? []).map((s) =>
        casing === 'camel' ? { id: s.Id, code: s.Code, title: s.Title } : { IsFPM: false, UrlFPM: 'None', InstitutionId: id, ...s },
      );
    } else return undefined;
    const body = JSON.stringify(value);
    const key = `${path}?${query}`;
    const previous = this.changedAt.get(key);
    if (!previous || previous.getTime() === 0) this.changedAt.set(key, this.started);
    return { status: 200, body, headers: this.options.noValidators ? {} : validatorsFor(body, this.changedAt.get(key)!) };
  }
}

function html(body: string): Answer {
  return { status: 200, body, headers: { 'content-type': 'text/html; charset=UTF-8' } };
}

function formOf(body: string, contentType: string): Record<string, string> {
  if (contentType.includes('json')) {
    const value = JSON.parse(body || '{}') as Record<string, unknown>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(body));
}

/** `SndrSubjectCode` → `sndrSubjectCode`, `Id` → `id`. */
function camel(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), v]));
}
