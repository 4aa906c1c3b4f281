import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import type { equivalentElsewhereContract } from '../../../functions/course/contracts/equivalent-elsewhere.js';
import type { materialsContract } from '../../../functions/course/contracts/materials.js';
import type { sectionListContract } from '../../../functions/course/contracts/section-list.js';
import { Panel } from '../components/status.js';
import { useTool } from '../use-tool.js';
import { hrefOfRef } from './search-page.js';

export function SectionsPanel({ course }: { course: string }) {
  const sections = useTool<ToolOutput<typeof sectionListContract>>('tn_course_section_list', { course, limit: 50 });
  const items = sections.data?.items ?? [];
  const terms = [...new Set(items.map((s) => s.term))];
  return (
    <Panel title="Sections and instructors" id="sections" loading={sections.loading} error={sections.error}>
      {items.length === 0 && <p class="muted">No sections are known for this course.</p>}
      {terms.map((term) => (
        <div key={term}>
          <h3>{term}</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">Section</th>
                <th scope="col">Instructors</th>
                <th scope="col">Meets</th>
                <th scope="col">Seats</th>
              </tr>
            </thead>
            <tbody>
              {items
                .filter((s) => s.term === term)
                .map((s) => (
                  <tr key={s.section}>
                    <td>{s.section}</td>
                    <td>{s.instructors.join(', ') || '—'}</td>
                    <td>{s.meetings.map((m) => `${m.type} ${m.days.join('')} ${m.startTime ?? ''}${m.endTime ? `–${m.endTime}` : ''}`.trim()).join('; ') || s.deliveryMethod || '—'}</td>
                    <td>{s.seats ? `${s.seats.status}${s.seats.available !== null ? ` (${s.seats.available})` : ''}` : '—'}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      ))}
    </Panel>
  );
}

export function EquivalentsPanel({ course }: { course: string }) {
  const equivalents = useTool<ToolOutput<typeof equivalentElsewhereContract>>('tn_course_equivalent_elsewhere', { course, limit: 50 });
  const items = equivalents.data?.items ?? [];
  return (
    <Panel title="Equivalents elsewhere" id="equivalents" loading={equivalents.loading} error={equivalents.error}>
      {items.length === 0 && <p class="muted">No transfer rules are known for this course.</p>}
      <ul>
        {items.map((e) => (
          <li key={e.ruleId}>
            {e.direction === 'outgoing' ? 'Earns ' : 'Earned by '}
            {e.direction === 'outgoing'
              ? e.targets.map((t, i) => <Target key={i} target={t} />)
              : e.sourceCourses.map((ref) => (
                  <a key={ref} href={hrefOfRef(ref)}>
                    {ref.toUpperCase()}{' '}
                  </a>
                ))}
            <span class="muted">
              {' '}
              at {e.otherInstitution.toUpperCase()} · since {e.effectiveStart}
              {e.effectiveEnd ? ` until ${e.effectiveEnd}` : ''}
              {e.condition ? ` · ${e.condition}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

type Equivalence = ToolOutput<typeof equivalentElsewhereContract>['items'][number];

const Target = ({ target }: { target: Equivalence['targets'][number] }) =>
  target.ref ? (
    <>
      <a href={hrefOfRef(target.ref)}>{target.text}</a>{' '}
    </>
  ) : (
    <>{target.text} </>
  );

export function MaterialsPanel({ course }: { course: string }) {
  const materials = useTool<ToolOutput<typeof materialsContract>>('tn_course_materials', { course, limit: 50 });
  const items = materials.data?.items ?? [];
  return (
    <Panel title="Materials" id="materials" loading={materials.loading} error={materials.error}>
      {items.length === 0 && <p class="muted">No study materials are known for this course.</p>}
      <ul>
        {items.map((m) => (
          <li key={m.materialId}>
            <a href={m.url} rel="noopener noreferrer" target="_blank">
              {m.title}
            </a>{' '}
            <span class="muted">
              · {m.materialKind}
              {m.term ? ` · ${m.term}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
