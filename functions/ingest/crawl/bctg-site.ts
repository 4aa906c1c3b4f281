import { field, numberField, textField, withCanonicalKeys } from './json-keys.js';
import { PageFailed, type PageResponse, type PoliteClient, type Validators } from './polite-client.js';

/**
 * The BC Transfer Guide as its public search pages talk to it (docs/crawling.md, research note
 * live-sources.md): sending institutions and their subjects from the agreement web service, a
 * WordPress REST nonce from the site's own pages, then the course-to-course search, a POST per
 * subject and page.
 */

export interface BctgOrigins {
  /** https://www.bctransferguide.ca: the WordPress site (nonce pages, the search). */
  www: string;
  /** https://ws.bctransferguide.ca: the v1.7 agreement web service. */
  ws: string;
  /** https://api.bctransferguide.ca: the newer v1.8 service (`/tcs/`). */
  api: string;
}

export interface BctgInstitution {
  id: number;
  code: string;
  title: string;
}

export interface BctgSubject {
  id: number;
  code: string;
  title: string;
}

/** One page of a subject's agreements, keys in the casing the adapter reads. */
export interface SearchPage {
  pageNumber: number;
  totalPages: number;
  /** Agreements with their course's sending fields filled in, as the adapter's API records. */
  agreements: Record<string, unknown>[];
}

/** What a list answered last time, and from which endpoint. */
export interface LastAnswer {
  endpoint: string;
  validators: Validators;
}

/** Either service answered, and how: what the crawl keeps to send back next time. */
export interface ListAnswer<T> {
  items: T[];
  response: PageResponse;
  /** Which endpoint answered (the other is tried when one is gone). */
  endpoint: string;
}

/** Agreement keys as the adapter (bctg-schemas.ts) and the captured responses spell them. */
const AGREEMENT_KEYS = [
  'Id', 'SndrSubjectCode', 'SndrCourseNumber', 'SndrCourseCredit', 'SndrCourseTitle', 'SndrCourseID', 'SndrInstitutionID', 'SndrInstitutionCode',
  'SndrInstitutionName', 'SndrInstitutionLabel', 'SndrGlobalInstitutionID', 'SndrCountryId', 'SndrCountry', 'SndrCountryShortName', 'SndrProvince',
  'SndrIsMember', 'RcvrInstitutionID', 'RcvrInstitutionCode', 'RcvrInstitutionName', 'RcvrInstitutionLabel', 'RcvrGlobalInstitutionID',
  'RcvrCountryId', 'RcvrCountry', 'RcvrCountryShortName', 'RcvrProvince', 'RcvrIsMember', 'Detail', 'Condition', 'StartDate', 'EndDate',
] as const;

const SEARCH_PATH = '/wp-json/bctg-search/course-to-course/search-from';
/** The pages whose HTML carries the search nonce, newest layout first. */
const NONCE_PAGES = ['/', '/transfer-options/search-courses/'];
/** More pages than any subject has ever had: a `totalPages` beyond it is a broken answer, not a reason to crawl forever. */
const MAX_PAGES = 1000;

/** What a search answered that cannot be read as agreements. */
export class UnreadableAnswer extends Error {}

export class BctgSite {
  private nonce?: Promise<string>;
  private readonly preferred = new Map<string, number>();

  constructor(
    private readonly client: PoliteClient,
    private readonly origins: BctgOrigins,
  ) {}

  /** Every sending institution the guide lists (v1.7 service; the v1.8 one when v1.7 is gone). */
  institutions(last?: LastAnswer): Promise<ListAnswer<BctgInstitution>> {
    return this.list('institutions', [`${this.origins.ws}/api/custom/ui/v1.7/agreementws/GetFromInstitutions`, `${this.origins.api}/tcs/custom/ui/v1.8/agreementws/GetFromInstitutions`], last, (item) => {
      const id = numberField(item, 'Id');
      const code = textField(item, 'Code')?.trim();
      return id !== undefined && code ? { id, code, title: textField(item, 'Title')?.trim() ?? code } : undefined;
    });
  }

  /** A sender's subjects (v1.8 service first, as the site moved to it; v1.7 when it is not there). */
  subjects(institutionId: number, last?: LastAnswer): Promise<ListAnswer<BctgSubject>> {
    const query = `institutionID=${institutionId}&sending=true`;
    return this.list('subjects', [`${this.origins.api}/tcs/custom/ui/v1.8/agreementws/GetSubjects?${query}`, `${this.origins.ws}/api/custom/ui/v1.7/agreementws/GetSubjects?${query}`], last, (item) => {
      const id = numberField(item, 'Id');
      const code = textField(item, 'Code')?.trim();
      return id !== undefined && code ? { id, code, title: textField(item, 'Title')?.trim() ?? code } : undefined;
    });
  }

  /**
   * One page of a subject's agreements. The nonce is read before the first search and again when the
   * site refuses one (it lapses after about a day); a second refusal with a fresh nonce fails the page.
   */
  async searchPage(sender: BctgInstitution, subject: BctgSubject, pageNumber: number): Promise<SearchPage> {
    for (let attempt = 1; ; attempt++) {
      const nonce = await this.currentNonce();
      const response = await this.client.request({
        url: `${this.origins.www}${SEARCH_PATH}?_wpnonce=${encodeURIComponent(nonce)}`,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
          accept: 'application/json, text/javascript, */*; q=0.01',
          'x-wp-nonce': nonce,
          'x-requested-with': 'XMLHttpRequest',
          referer: `${this.origins.www}/transfer-options/search-courses/`,
        },
        body: new URLSearchParams({
          sender: String(sender.id),
          institutionCode: sender.code,
          subjectId: String(subject.id),
          subjectCode: subject.code,
          pageNumber: String(pageNumber),
        }).toString(),
      });
      if ((response.status === 403 || response.status === 401) && attempt === 1) {
        await this.forget(nonce);
        continue;
      }
      if (response.status !== 200) throw new PageFailed(response.url, `search ${sender.code} ${subject.code} page ${pageNumber} answered ${response.status}${response.status === 403 ? ' with a fresh nonce too' : ''}`, 'gave-up', response.status);
      return readSearchPage(response.text, pageNumber);
    }
  }

  private currentNonce(): Promise<string> {
    // A failed fetch is not kept: the next search tries again.
    this.nonce ??= this.fetchNonce().catch((error: unknown) => {
      this.nonce = undefined;
      throw error;
    });
    return this.nonce;
  }

  /** Another search may have fetched a fresh one already: only the nonce that was refused is thrown away. */
  private async forget(refused: string): Promise<void> {
    const current = await this.nonce?.catch(() => undefined);
    if (current === undefined || current === refused) this.nonce = undefined;
  }

  private async fetchNonce(): Promise<string> {
    const problems: string[] = [];
    for (const path of NONCE_PAGES) {
      const response = await this.client.request({ url: `${this.origins.www}${path}`, headers: { accept: 'text/html,application/xhtml+xml' } });
      const nonce = response.status === 200 ? nonceIn(response.text) : undefined;
      if (nonce) return nonce;
      problems.push(`${path} ${response.status === 200 ? 'has no search nonce' : `answered ${response.status}`}`);
    }
    throw new PageFailed(`${this.origins.www}/`, `no search nonce on the site's pages (${problems.join('; ')})`, 'gave-up');
  }

  private async list<T>(name: string, urls: string[], last: LastAnswer | undefined, read: (item: unknown) => T | undefined): Promise<ListAnswer<T>> {
    // The endpoint that answered last is asked first; a gone or broken one hands over to the other.
    const first = this.preferred.get(name) ?? 0;
    const order = [...urls.slice(first), ...urls.slice(0, first)];
    const problems: string[] = [];
    for (const url of order) {
      try {
        // Validators are the answering endpoint's own: the other service never issued them.
        const response = await this.client.request({ url, validators: last?.endpoint === url ? last.validators : undefined });
        if (response.status === 304) return { items: [], response, endpoint: url };
        if (response.status !== 200) {
          problems.push(`${url} answered ${response.status}`);
          continue;
        }
        const value = parseJson(response.text);
        if (!Array.isArray(value)) {
          problems.push(`${url} did not answer a JSON list`);
          continue;
        }
        this.preferred.set(name, urls.indexOf(url));
        return { items: value.map(read).filter((item): item is T => item !== undefined), response, endpoint: url };
      } catch (error) {
        if (!(error instanceof PageFailed) || error.reason !== 'gave-up') throw error;
        problems.push(error.message);
      }
    }
    throw new PageFailed(urls[0]!, `${name}: ${problems.join('; ')}`, 'gave-up');
  }
}

/**
 * The search nonce in a page of the site: the `nonce` attribute of its search filters element
 * (`c2c-home-filters` on the home page since late 2025, `c2c-search-filters` on the search page),
 * else WordPress's own `wpApiSettings.nonce`, else a `_wpnonce=` in a link.
 */
export function nonceIn(html: string): string | undefined {
  for (const tag of html.match(/<[a-z][^>]*\bid\s*=\s*["']c2c-[a-z-]*filters["'][^>]*>/gi) ?? []) {
    const found = /\bnonce\s*=\s*["']([A-Za-z0-9]+)["']/i.exec(tag)?.[1];
    if (found) return found;
  }
  return /["']nonce["']\s*:\s*["']([A-Za-z0-9]+)["']/.exec(html)?.[1] ?? /[?&]_wpnonce=([A-Za-z0-9]+)/.exec(html)?.[1];
}

/** A search answer as the adapter's records; anything else (HTML, an error object) is unreadable. */
export function readSearchPage(text: string, pageNumber: number): SearchPage {
  const value = parseJson(text);
  const listed = field(value, 'courses');
  const pageLength = numberField(value, 'pageLength');
  const totalAgreements = numberField(value, 'totalAgreements');
  const totalPages = numberField(value, 'totalPages') ?? (totalAgreements !== undefined && pageLength ? Math.ceil(totalAgreements / pageLength) : undefined);
  // No results may come as a null list.
  const courses = listed === null && totalPages === 0 ? [] : listed;
  if (!Array.isArray(courses) || totalPages === undefined || !Number.isInteger(totalPages) || totalPages < 0 || totalPages > MAX_PAGES) {
    throw new UnreadableAnswer(`search page ${pageNumber} is not a search-from answer (${describe(value)})`);
  }
  const agreements: Record<string, unknown>[] = [];
  for (const course of courses) {
    const list = field(course, 'agreements');
    if (!Array.isArray(list)) throw new UnreadableAnswer(`search page ${pageNumber}: a course has no agreements list`);
    const { agreements: _list, ...courseFields } = withCanonicalKeys(course, [...AGREEMENT_KEYS, 'agreements']);
    // An agreement repeats its course's sending fields; the course's copy fills any it lacks.
    for (const agreement of list) agreements.push({ ...courseFields, ...withCanonicalKeys(agreement, AGREEMENT_KEYS) });
  }
  return { pageNumber, totalPages, agreements };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'not JSON';
  const code = textField(value, 'code');
  return code ? `error ${code}` : Array.isArray(value) ? 'a list' : `keys ${Object.keys(value as object).slice(0, 6).join(', ')}`;
}
