import { useState } from 'preact/hooks';
import { ErrorNote, Loading, Panel } from '../components/status.js';
import { PrereqTree, type RequirementNode } from '../components/prereq-tree.js';
import { parseCompleted, useCompletedCourses } from '../completed-courses.js';
import { useTitle, useTool } from '../use-tool.js';
import { EquivalentsPanel, GradesPanel, MaterialsPanel, SectionsPanel } from './course-panels.js';

interface Course {
  ref: string;
  code: string;
  institution: string;
  title: string | null;
  description: string | null;
  credits: number | null;
  prerequisitesText: string | null;
  corequisitesText: string | null;
  notes: string | null;
  designation: string | null;
  offeredTerms: string[];
}

interface Prereqs {
  parsed: { tree: RequirementNode; fullyParsed: boolean; recommended: string[] };
  check: { satisfied: boolean | 'unknown'; explanation: string[] } | null;
}

export function CoursePage({ institution, code }: { institution: string; code: string }) {
  const ref = `${institution}:${code}`;
  const course = useTool<Course>('tn_course_get', { course: ref });
  useTitle(course.data ? `${course.data.code} ${course.data.title ?? ''}`.trim() : code);
  if (course.loading && !course.data) return <Loading what={code} />;
  if (course.error)
    return (
      <>
        <h1>{code}</h1>
        <ErrorNote message={course.error} />
        <p>
          <a href="/">Back to search</a>
        </p>
      </>
    );
  const c = course.data!;
  return (
    <article>
      <p class="muted">{c.institution.toUpperCase()}</p>
      <h1>
        {c.code} {c.title}
      </h1>
      <dl class="facts">
        {c.credits !== null && <Fact term="Credits" value={String(c.credits)} />}
        {c.designation && <Fact term="Designation" value={c.designation} />}
        {c.offeredTerms.length > 0 && <Fact term="Offered" value={c.offeredTerms.slice(0, 6).join(', ')} />}
        {c.corequisitesText && <Fact term="Corequisites" value={c.corequisitesText} />}
      </dl>
      {c.description && <p>{c.description}</p>}
      {c.notes && <p class="muted">{c.notes}</p>}
      <PrereqPanel course={c} />
      <SectionsPanel course={c.ref} />
      <GradesPanel course={c.ref} />
      <EquivalentsPanel course={c.ref} />
      <MaterialsPanel course={c.ref} />
    </article>
  );
}

const Fact = ({ term, value }: { term: string; value: string }) => (
  <>
    <dt>{term}</dt>
    <dd>{value}</dd>
  </>
);

function PrereqPanel({ course }: { course: Course }) {
  const [done, setDone, saveError] = useCompletedCourses();
  const prereqs = useTool<Prereqs>('tn_course_prereqs', { course: course.ref, completed: done.map(parseCompleted) });
  const [entry, setEntry] = useState('');
  const add = (event: Event) => {
    event.preventDefault();
    if (entry.trim()) setDone([...done, entry]);
    setEntry('');
  };
  const check = prereqs.data?.check;
  return (
    <Panel title="Prerequisites" id="prereqs">
      {course.prerequisitesText ? <p>{course.prerequisitesText}</p> : <p class="muted">No prerequisite text published.</p>}
      {prereqs.loading && !prereqs.data && <Loading what="prerequisite tree" />}
      <ErrorNote message={prereqs.error} />
      {prereqs.data && <PrereqTree node={prereqs.data.parsed.tree} done={done.map((c) => parseCompleted(c).course)} home={course.institution} />}
      {check && (
        <p role="status" class={check.satisfied === true ? 'ok' : check.satisfied === false ? 'bad' : 'warn'}>
          {check.satisfied === true ? 'You meet these prerequisites.' : check.satisfied === false ? 'Not met yet. ' : 'Cannot be fully checked. '}
          {check.satisfied !== true && check.explanation.join(' ')}
        </p>
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
  );
}
