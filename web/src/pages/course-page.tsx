import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import type { getContract } from '../../../functions/course/contracts/get.js';
import { ErrorNote, Loading } from '../components/status.js';
import { useTitle, useTool } from '../use-tool.js';
import { GradesPanel } from './course-grades.js';
import { EquivalentsPanel, MaterialsPanel, SectionsPanel } from './course-panels.js';
import { PrereqPanel } from './course-prereqs.js';

type Course = ToolOutput<typeof getContract>;

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
  // Known only from transfer rules (or sections, or grades): what the catalogue would say is unknown, not empty.
  const catalogued = !c.knownFrom || c.knownFrom.includes('catalogue');
  return (
    <article>
      <p class="muted">{c.institution.toUpperCase()}</p>
      <h1>
        {c.code} {c.title}
      </h1>
      {!catalogued && (
        <p class="note">
          Tutor Nexus has no catalogue entry for this course: it is known only from {c.knownFrom!.includes('transfer-rules') ? 'transfer rules that name it' : 'its sections or grades'}, so its
          description and prerequisites are not shown here.
        </p>
      )}
      <dl class="facts">
        {c.credits !== null && <Fact term="Credits" value={String(c.credits)} />}
        {c.designation && <Fact term="Designation" value={c.designation} />}
        {c.offeredTerms.length > 0 && <Fact term="Offered" value={c.offeredTerms.slice(0, 6).join(', ')} />}
        {c.corequisitesText && <Fact term="Corequisites" value={c.corequisitesText} />}
      </dl>
      {c.description && <p>{c.description}</p>}
      {c.notes && <p class="muted">{c.notes}</p>}
      <PrereqPanel course={c} catalogued={catalogued} />
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
