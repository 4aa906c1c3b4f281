import { Panel } from '../components/status.js';
import { useTool } from '../use-tool.js';
import { hrefOfRef } from './search-page.js';

interface Page<T> {
  items: T[];
  totalCount?: number;
  hasMore: boolean;
}

interface Section {
  term: string;
  section: string;
  instructors: string[];
  deliveryMethod?: string;
  campus?: string;
  meetings: { type: string; days: string[]; startTime?: string; endTime?: string }[];
  seats?: { available: number | null; status: string };
}

export function SectionsPanel({ course }: { course: string }) {
  const sections = useTool<Page<Section>>('tn_course_section_list', { course, limit: 50 });
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

interface Equivalence {
  ruleId: string;
  direction: 'outgoing' | 'incoming';
  otherInstitution: string;
  sourceCourses: string[];
  targets: { kind: string; ref?: string; text: string; credits?: number | null }[];
  effectiveStart: string;
  effectiveEnd: string | null;
  condition?: string | null;
}

export function EquivalentsPanel({ course }: { course: string }) {
  const equivalents = useTool<Page<Equivalence>>('tn_course_equivalent_elsewhere', { course, limit: 50 });
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

const Target = ({ target }: { target: Equivalence['targets'][number] }) =>
  target.ref ? (
    <>
      <a href={hrefOfRef(target.ref)}>{target.text}</a>{' '}
    </>
  ) : (
    <>{target.text} </>
  );

interface Material {
  materialId: string;
  materialKind: string;
  title: string;
  url: string;
  term?: string;
}

export function MaterialsPanel({ course }: { course: string }) {
  const materials = useTool<Page<Material>>('tn_course_materials', { course, limit: 50 });
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
