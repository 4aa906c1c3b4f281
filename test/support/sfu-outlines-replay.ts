import { readFileSync } from 'node:fs';
import { json, ReplayOrigin, validatorsFor, type Answer } from './replay-server.js';

/**
 * SFU's Course Outlines API replayed on 127.0.0.1 as it answers (https://www.sfu.ca/outlines/help/api.html
 * and real responses of 2026): `/bin/wcm/course-outlines?<year>/<term>/<dept>/<number>/<section>`, GET
 * only, JSON lists of `{text, value, …}` at every level, an outline `{info, instructor, courseSchedule}`
 * with Java-style dates, department case ignored, and a 404 `{"errorMessage": …}` for anything missing,
 * including the section list of a course its term lists (directed studies). ETag and Last-Modified on
 * every answer (unless asked not to), 304 to a matching conditional request.
 *
 * Rows are real: SFU's fall 2026 and spring 2026 sections and outlines as sfucourses-api captured them,
 * turned back into the API's shape.
 */

interface SectionsFileCourse {
  dept: string;
  number: string;
  title?: string;
  units?: string;
  term: string;
  sections: { section: string; deliveryMethod?: string; classNumber?: string; instructors: { name: string; email?: string }[]; schedules: Record<string, string>[] }[];
}

interface OutlineFileCourse {
  dept: string;
  number: string;
  description?: string;
  notes?: string;
  designation?: string;
  prerequisites?: string;
  corequisites?: string;
  degreeLevel?: string;
}

export interface SfuOutline {
  info: Record<string, string>;
  instructor: Record<string, string>[];
  courseSchedule: Record<string, unknown>[];
}

interface SfuCourse {
  value: string;
  text: string;
  title?: string;
  /** undefined: the section list answers 404 (a listed course with no sections). */
  sections?: Map<string, SfuOutline>;
}

export interface SfuDepartment {
  value: string;
  text: string;
  name?: string;
  courses: SfuCourse[];
}

/** year → term value → departments. */
export type SfuFixture = Map<string, Map<string, SfuDepartment[]>>;

const DEPARTMENT_NAMES: Record<string, string> = { MACM: 'Mathematics and Computing Science', STAT: 'Statistics and Actuarial Science' };

export function sfuFixture(departments = ['MACM', 'STAT']): SfuFixture {
  const outlines = new Map((JSON.parse(readFileSync('data/sample/sfu-catalog-2026/outlines-all.json', 'utf8')) as OutlineFileCourse[]).map((o) => [`${o.dept} ${o.number}`, o]));
  const term = (file: string) => {
    const courses = (JSON.parse(readFileSync(`data/sample/sfu-catalog-2026/${file}`, 'utf8')) as SectionsFileCourse[]).filter((c) => departments.includes(c.dept));
    return departments.map((dept) => {
      const listed = courses.filter((c) => c.dept === dept).map((c) => courseOf(c, outlines.get(`${c.dept} ${c.number}`)));
      // BUS 296 / 396 style: a directed-studies course the term lists whose section list is 404.
      if (dept === 'STAT') listed.push({ value: '496', text: '496', title: 'Directed Studies in Statistics' });
      return { value: dept.toLowerCase(), text: dept, ...(DEPARTMENT_NAMES[dept] ? { name: DEPARTMENT_NAMES[dept] } : {}), courses: listed };
    });
  };
  return new Map([
    ['2025', new Map([['fall', []]])],
    [
      '2026',
      new Map([
        ['spring', term('sections-2026-spring-all.json')],
        ['summer', []],
        ['fall', term('sections-2026-fall-all.json')],
      ]),
    ],
    ['2027', new Map([['spring', []]])],
  ]);
}

function courseOf(course: SectionsFileCourse, outline: OutlineFileCourse | undefined): SfuCourse {
  const sections = new Map<string, SfuOutline>();
  for (const section of course.sections) {
    sections.set(section.section.toLowerCase(), {
      info: {
        notes: outline?.notes ?? '',
        deliveryMethod: section.deliveryMethod ?? '',
        corequisites: outline?.corequisites ?? '',
        description: outline?.description ?? '',
        section: section.section,
        dept: course.dept,
        units: course.units ?? '',
        title: course.title ?? '',
        type: 'e',
        classNumber: section.classNumber ?? '',
        departmentalUgradNotes: '',
        prerequisites: outline?.prerequisites ?? '',
        number: course.number,
        degreeLevel: outline?.degreeLevel ?? 'UGRD',
        outlinePath: `${course.term.split(' ')[1]}/${course.term.split(' ')[0]!.toLowerCase()}/${course.dept.toLowerCase()}/${course.number.toLowerCase()}/${section.section.toLowerCase()}`,
        specialTopic: '',
        name: `${course.dept} ${course.number} ${section.section}`,
        term: course.term,
        designation: outline?.designation ?? '',
      },
      instructor: section.instructors.map((person) => {
        const [firstName = '', ...rest] = person.name.split(' ');
        return { profileUrl: '', commonName: firstName, firstName, lastName: rest.join(' '), phone: '', roleCode: 'PI', name: person.name, officeHours: '', office: '', email: person.email ?? '' };
      }),
      courseSchedule: section.schedules.map((s) => ({
        startTime: s.startTime,
        startDate: javaDate(s.startDate!),
        endDate: javaDate(s.endDate!),
        endTime: s.endTime,
        sectionCode: s.sectionCode,
        isExam: false,
        days: s.days,
        campus: s.campus,
        buildingCode: '',
        roomNumber: '',
      })),
    });
  }
  return { value: course.number.toLowerCase(), text: course.number, ...(course.title ? { title: course.title } : {}), sections };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-09-09` → `Wed Sep 09 00:00:00 PDT 2026`, as SFU's Java back end prints dates. */
function javaDate(iso: string): string {
  const date = new Date(`${iso}T12:00:00Z`);
  const month = date.getUTCMonth();
  const zone = month > 2 && month < 10 ? 'PDT' : 'PST';
  return `${DAYS[date.getUTCDay()]} ${MONTHS[month]} ${String(date.getUTCDate()).padStart(2, '0')} 00:00:00 ${zone} ${date.getUTCFullYear()}`;
}

const NOT_FOUND: Answer = { status: 404, body: JSON.stringify({ errorMessage: 'Invalid Query String or Object does not exist.' }) };

export class SfuOutlinesReplay {
  readonly site: ReplayOrigin;
  private readonly changedAt = new Map<string, Date>();
  private clock = new Date('2026-06-01T08:00:00Z');

  constructor(
    readonly fixture: SfuFixture = sfuFixture(),
    /** Answers without ETag or Last-Modified: nothing public shows whether SFU sends them. */
    readonly options: { noValidators?: boolean } = {},
  ) {
    this.site = new ReplayOrigin('sfu', (request) => this.answer(request));
  }

  async start(): Promise<Record<string, string>> {
    await this.site.start();
    return { TN_SFU_OUTLINES_ORIGIN: this.site.origin };
  }

  close(): Promise<void> {
    return this.site.close();
  }

  department(year: string, term: string, dept: string): SfuDepartment {
    return this.fixture.get(year)!.get(term)!.find((d) => d.value === dept.toLowerCase())!;
  }

  /** An outline changes upstream (its Last-Modified moves on). */
  changeOutline(path: string, change: (outline: SfuOutline) => void): void {
    const [year, term, dept, number, section] = path.toLowerCase().split('/') as [string, string, string, string, string];
    const outline = this.department(year, term, dept).courses.find((c) => c.value === number)!.sections!.get(section)!;
    change(outline);
    this.clock = new Date(this.clock.getTime() + 3_600_000);
    this.changedAt.set(path.toLowerCase(), this.clock);
  }

  /** Outline requests (five segments) in the log. */
  outlineRequests(): string[] {
    return this.site.log.filter((r) => (r.url.split('?')[1] ?? '').split('/').length === 5).map((r) => r.url);
  }

  private answer({ method, path, query }: { method: string; path: string; query: string }): Answer | undefined {
    if (method !== 'GET' || path !== '/bin/wcm/course-outlines') return undefined;
    const segments = query ? decodeURIComponent(query).split('/').map((s) => s.trim().toLowerCase()) : [];
    const value = this.resolve(segments);
    if (value === undefined) return NOT_FOUND;
    const key = segments.join('/');
    const body = JSON.stringify(value);
    return json(value, this.options.noValidators ? {} : validatorsFor(body, this.changedAt.get(key) ?? new Date('2026-05-01T08:00:00Z')));
  }

  private resolve([year, term, dept, number, section, ...extra]: string[]): unknown {
    if (extra.length) return undefined;
    if (year === undefined) return [...this.fixture.keys()].map((y) => ({ text: y, value: y }));
    const terms = this.fixture.get(year);
    if (!terms) return undefined;
    if (term === undefined) return [...terms.keys()].map((t) => ({ text: t.toUpperCase(), value: t }));
    const departments = terms.get(term);
    if (!departments) return undefined;
    if (dept === undefined) return departments.map((d) => ({ text: d.text, value: d.value, ...(d.name ? { name: d.name } : {}) }));
    const department = departments.find((d) => d.value === dept);
    if (!department) return undefined;
    if (number === undefined) return department.courses.map((c) => ({ text: c.text, value: c.value, ...(c.title ? { title: c.title } : {}) }));
    const course = department.courses.find((c) => c.value === number);
    if (!course?.sections) return undefined;
    if (section === undefined) {
      return [...course.sections].map(([value, outline]) => ({
        text: outline.info.section,
        value,
        title: outline.info.title,
        classType: 'e',
        sectionCode: String(outline.courseSchedule[0]?.sectionCode ?? 'LEC'),
        associatedClass: '1',
      }));
    }
    return course.sections.get(section);
  }
}
