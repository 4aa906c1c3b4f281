import { useState } from 'preact/hooks';
import { Loading, ErrorNote, Panel } from '../components/status.js';
import { PrereqTree, type RequirementNode } from '../components/prereq-tree.js';
import { parseCompleted, useCompletedCourses } from '../completed-courses.js';
import { coursePath } from '../router.js';
import { useTool } from '../use-tool.js';

interface Check {
  satisfied: boolean | 'unknown';
  status?: 'met' | 'met-if-grades' | 'not-met' | 'cannot-check' | 'not-known';
  verdict?: string;
  stillNeeded?: { text: string; courses: string[] }[];
  gradesToConfirm?: { course: string; minGrade: string }[];
  cannotCheck?: string[];
  explanation: string[];
}

interface Prereqs {
  text: string | null;
  parsed: { tree: RequirementNode; fullyParsed: boolean };
  check: Check | null;
  prerequisitesKnown?: boolean;
  leadsTo?: { course: string; code: string; title: string | null }[];
}

export interface CourseFacts {
  ref: string;
  code: string;
  institution: string;
  prerequisitesText: string | null;
}

const TONE: Record<NonNullable<Check['status']>, string> = { met: 'ok', 'met-if-grades': 'ok', 'not-met': 'bad', 'cannot-check': 'warn', 'not-known': 'warn' };

/**
 * Prerequisites as a student asks about them: the verdict on the courses they have done in a sentence
 * or two, what is still needed as a list of its own, the tree with every course a link, and what this
 * course leads to. A course with no catalogue entry says its prerequisites are unknown, nothing more.
 */
export function PrereqPanel({ course, catalogued }: { course: CourseFacts; catalogued: boolean }) {
  const [done, setDone, saveError] = useCompletedCourses();
  const completed = done.map(parseCompleted);
  const prereqs = useTool<Prereqs>('tn_course_prereqs', { course: course.ref, completed });
  const [entry, setEntry] = useState('');
  const add = (event: Event) => {
    event.preventDefault();
    if (entry.trim()) setDone([...done, entry]);
    setEntry('');
  };
  const data = prereqs.data;
  const known = catalogued && data?.prerequisitesKnown !== false;
  const check = data?.check;
  return (
    <>
      <Panel title="Prerequisites" id="prereqs">
        {!known ? (
          <p role="status" class="warn">
            Prerequisites not known: Tutor Nexus has no catalogue entry for {course.code}, only transfer rules that name it. Check {course.institution.toUpperCase()}&rsquo;s
            calendar before you enrol.
          </p>
        ) : (
          <>
            {course.prerequisitesText ? <p>{course.prerequisitesText}</p> : <p class="muted">No prerequisites are published for this course.</p>}
            {prereqs.loading && !data && <Loading what="prerequisite check" />}
            <ErrorNote message={prereqs.error} />
            {/* Never the answer for the record before the last change: it waits for the new check. */}
            {check && done.length > 0 && !prereqs.loading && <Verdict check={check} home={course.institution} />}
            {check && done.length === 0 && course.prerequisitesText && <p class="muted">Add the courses you have done below to check them.</p>}
            {data && <PrereqTree node={data.parsed.tree} done={completed} home={course.institution} />}
          </>
        )}
        <h3 id="done-heading">Courses I have done</h3>
        <ErrorNote message={saveError} />
        <ul class="chips" aria-labelledby="done-heading">
          {done.map((c) => (
            <li key={c}>
              {c}{' '}
              <button type="button" class="secondary" aria-label={`Remove ${c}`} onClick={() => setDone(done.filter((d) => d !== c))}>
                ×
              </button>
            </li>
          ))}
          {done.length === 0 && <li class="muted">none yet</li>}
        </ul>
        <form class="row" onSubmit={add}>
          <div>
            <label for="done-entry">Add a course you have done (and its grade)</label>
            <input id="done-entry" value={entry} placeholder="e.g. CMPT 125 B+" onInput={(e) => setEntry(e.currentTarget.value)} />
          </div>
          <button type="submit">Add</button>
        </form>
      </Panel>
      <LeadsTo course={course} items={data?.leadsTo} loading={prereqs.loading && !data} />
    </>
  );
}

function Verdict({ check, home }: { check: Check; home: string }) {
  const status = check.status ?? (check.satisfied === true ? 'met' : check.satisfied === false ? 'not-met' : 'cannot-check');
  const verdict = check.verdict ?? check.explanation[0] ?? '';
  return (
    <div class="verdict">
      <p role="status" class={`verdict-line ${TONE[status]}`}>
        {verdict}
      </p>
      {(check.stillNeeded?.length ?? 0) > 0 && (
        <>
          <h3 id="still-needed">Still needed</h3>
          <ul aria-labelledby="still-needed">
            {check.stillNeeded!.map((need) => (
              <li key={need.text}>
                <Linked text={need.text} codes={need.courses} home={home} />
              </li>
            ))}
          </ul>
        </>
      )}
      {(check.gradesToConfirm?.length ?? 0) > 0 && (
        <>
          <h3 id="grades-to-confirm">Grades to confirm</h3>
          <ul aria-labelledby="grades-to-confirm">
            {check.gradesToConfirm!.map((g) => (
              <li key={g.course}>
                {g.course}: at least {g.minGrade} <span class="muted">(add it with its grade, e.g. &ldquo;{g.course} B&rdquo;)</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {(check.cannotCheck?.length ?? 0) > 0 && (
        <>
          <h3 id="cannot-check">Cannot be checked here</h3>
          <ul aria-labelledby="cannot-check">
            {check.cannotCheck!.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** A phrase with each course it names as a link to that course's page. */
function Linked({ text, codes, home }: { text: string; codes: string[]; home: string }) {
  if (!codes.length) return <>{text}</>;
  const pattern = new RegExp(`(${codes.map((code) => code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'g');
  return (
    <>
      {text.split(pattern).map((part, i) =>
        codes.includes(part) ? (
          <a key={i} href={coursePath(home, part)}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** What this course opens: the courses of the same institution whose requisites name it, each a link. */
function LeadsTo({ course, items, loading }: { course: CourseFacts; items?: Prereqs['leadsTo']; loading: boolean }) {
  return (
    <Panel title="Leads to" id="leads-to" loading={loading}>
      {items && items.length === 0 && <p class="muted">No course in the catalogue names {course.code} as a prerequisite.</p>}
      {items && items.length > 0 && (
        <>
          <p class="muted">Courses whose prerequisites or corequisites name {course.code}:</p>
          <ul class="leads-to">
            {items.map((item) => (
              <li key={item.course}>
                <a href={coursePath(course.institution, item.code)}>
                  <span class="code">{item.code}</span> {item.title ?? ''}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </Panel>
  );
}
