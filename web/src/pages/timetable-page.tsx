import type { institutionsContract } from '../../../functions/course/contracts/institutions.js';
import type { timetableContract } from '../../../functions/course/contracts/timetable.js';
import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import { useState } from 'preact/hooks';
import { callTool, messageOf } from '../api.js';
import { ErrorNote, Loading } from '../components/status.js';
import { codeOf, kindName, WeekGrid } from '../components/week-grid.js';
import { navigate } from '../router.js';
import { coursesIn, termChoices, termLabel, timetableHref, timetableInput, timetableStateOf, WEEKDAYS, type TimetableState } from '../timetable-state.js';
import { useTitle, useTool } from '../use-tool.js';

type Timetable = ToolOutput<typeof timetableContract>;
type Combination = Timetable['items'][number];

const EARLIEST = ['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '12:00', '13:00'];
const LATEST = ['14:00', '15:00', '16:00', '17:00', '17:30', '18:00', '19:00', '20:00', '21:00'];
const RANKS = [
  ['', 'Compact: fewest gaps'],
  ['fewest-days', 'Fewest days on campus'],
  ['late-start', 'Latest mornings'],
] as const;

export function TimetablePage({ params }: { params: URLSearchParams }) {
  const state = timetableStateOf(params);
  useTitle('Timetable');
  const go = (patch: Partial<TimetableState>) => navigate(timetableHref({ ...state, option: 1, ...patch }));
  const result = useTool<Timetable>('tn_course_timetable', timetableInput(state));
  const institutions = useTool<ToolOutput<typeof institutionsContract>>('tn_course_institutions', { limit: 100 });
  const [institution, setInstitution] = useState(state.courses[0]?.split(':')[0] ?? 'sfu');
  const [entry, setEntry] = useState('');
  const [entryError, setEntryError] = useState<string>();
  const add = (event: Event) => {
    event.preventDefault();
    const { refs, rest } = coursesIn(entry, institution);
    // What is not a course code stays in the field, named, so nothing typed is lost.
    setEntryError(rest ? `"${rest}" is not a course code like CMPT 225.` : undefined);
    setEntry(rest);
    if (refs.length) go({ courses: [...new Set([...state.courses, ...refs])] });
  };
  const catalogs = (institutions.data?.items ?? []).filter((i) => (i.courses ?? 0) > 0);
  const data = result.data;
  const terms = termChoices([...(data?.availableTerms ?? []), ...(state.term ? [state.term] : [])]);
  const toggleDay = (day: string, off: boolean) => go({ daysOff: WEEKDAYS.map(([d]) => d).filter((d) => (d === day ? off : state.daysOff.includes(d))) });
  return (
    <>
      <h1>Timetable</h1>
      <p class="muted">Add the courses you plan to take: every week they fit in is listed, best first, each lecture with a lab or tutorial of its own.</p>
      <form class="row tt-add" onSubmit={add}>
        <div>
          <label for="tt-institution">Institution</label>
          <select id="tt-institution" value={institution} onChange={(e) => setInstitution(e.currentTarget.value)}>
            {catalogs.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
            {!catalogs.some((i) => i.id === institution) && <option value={institution}>{institution}</option>}
          </select>
        </div>
        <div>
          <label for="tt-course">Add a course</label>
          <input
            id="tt-course"
            value={entry}
            size={16}
            placeholder="e.g. CMPT 225"
            aria-invalid={entryError ? true : undefined}
            aria-describedby={entryError ? 'tt-course-error' : undefined}
            onInput={(e) => setEntry(e.currentTarget.value)}
          />
        </div>
        <button type="submit">Add</button>
      </form>
      {entryError && (
        <p id="tt-course-error" class="error" role="alert">
          {entryError}
        </p>
      )}
      <h2 id="tt-courses-heading" class="visually-hidden">
        Courses
      </h2>
      <ul class="chips" aria-labelledby="tt-courses-heading">
        {state.courses.map((ref) => (
          <li key={ref}>
            {codeOf(ref)} <span class="muted">{ref.split(':')[0]!.toUpperCase()}</span>{' '}
            <button type="button" class="secondary" aria-label={`Remove ${codeOf(ref)}`} onClick={() => go({ courses: state.courses.filter((c) => c !== ref) })}>
              ×
            </button>
          </li>
        ))}
        {state.courses.length === 0 && <li class="muted">no courses yet</li>}
      </ul>
      <fieldset class="row prefs">
        <legend>Term and preferences</legend>
        <div>
          <label for="tt-term">Term</label>
          <select id="tt-term" value={state.term} onChange={(e) => go({ term: e.currentTarget.value })}>
            <option value="">Newest with sections</option>
            {terms.map((term) => (
              <option key={term} value={term}>
                {termLabel(term)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="tt-before">No classes before</label>
          <select id="tt-before" value={state.notBefore} onChange={(e) => go({ notBefore: e.currentTarget.value })}>
            <option value="">Any time</option>
            {EARLIEST.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="tt-after">No classes after</label>
          <select id="tt-after" value={state.notAfter} onChange={(e) => go({ notAfter: e.currentTarget.value })}>
            <option value="">Any time</option>
            {LATEST.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="tt-rank">Arrange by</label>
          <select id="tt-rank" value={state.rank} onChange={(e) => go({ rank: e.currentTarget.value })}>
            {RANKS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <fieldset class="days">
          <legend>Days off</legend>
          {WEEKDAYS.slice(0, 5).map(([day, name]) => (
            <label key={day} class="check">
              <input type="checkbox" checked={state.daysOff.includes(day)} onChange={(e) => toggleDay(day, e.currentTarget.checked)} /> {name}
            </label>
          ))}
        </fieldset>
      </fieldset>
      {result.loading && <Loading what="timetables" />}
      <ErrorNote message={result.error} />
      {data && !result.loading && !result.error && <Result data={data} state={state} />}
    </>
  );
}

function Result({ data, state }: { data: Timetable; state: TimetableState }) {
  const loaded = data.items.length;
  const index = Math.min(state.option, loaded) - 1;
  const shown = data.items[index];
  // Only what stands in the way: a course placed as asked needs no note.
  const notes = data.courses.filter((c) => c.status !== 'placed');
  const show = (option: number) => navigate(timetableHref({ ...state, option }));
  return (
    <section aria-labelledby="tt-result-heading">
      <h2 id="tt-result-heading">{termLabel(data.term)}</h2>
      {data.conflicts.length > 0 && (
        <div class="panel clash" role="status">
          <p>
            <strong>No timetable fits.</strong>
          </p>
          <ul>
            {data.conflicts.map((c) => (
              <li key={c.courses.join()}>{c.message}</li>
            ))}
          </ul>
        </div>
      )}
      {notes.length > 0 && (
        <ul class="notes">
          {notes.map((c) => (
            <li key={c.course} class={c.status === 'no-fixed-times' ? 'muted' : 'warn'}>
              {c.message}
            </li>
          ))}
        </ul>
      )}
      {shown && (
        <>
          <div class="row tt-nav">
            <p aria-live="polite" class="tt-count">
              Timetable {index + 1} of {data.totalCount ?? loaded}
              {data.complete ? '' : '+'}
            </p>
            <button type="button" class="secondary" disabled={index === 0} onClick={() => show(index)}>
              Previous
            </button>
            <button type="button" class="secondary" disabled={index + 1 >= loaded} onClick={() => show(index + 2)}>
              Next
            </button>
            <Download state={state} term={data.term} combination={shown} />
          </div>
          <p class="muted">{weekSummary(shown)}</p>
          <WeekGrid meetings={shown.meetings} courses={state.courses} label={`Week of timetable ${index + 1}`} />
          <SectionList combination={shown} />
        </>
      )}
    </section>
  );
}

/** "3 days on campus · 3 h 20 min between classes · Burnaby": what differs between two weeks. */
function weekSummary({ week, sections }: Combination): string {
  const gaps = week.gapMinutes >= 60 ? `${Math.floor(week.gapMinutes / 60)} h${week.gapMinutes % 60 ? ` ${week.gapMinutes % 60} min` : ''}` : `${week.gapMinutes} min`;
  const campuses = [...new Set(sections.map((s) => s.campus).filter(Boolean))];
  const rushed = week.rushedCampusChanges ? `${week.rushedCampusChanges} change${week.rushedCampusChanges === 1 ? '' : 's'} of campus with under an hour to travel` : '';
  return [`${week.days} day${week.days === 1 ? '' : 's'} on campus`, week.gapMinutes ? `${gaps} between classes` : 'no gaps between classes', campuses.join(' and '), rushed].filter(Boolean).join(' · ');
}

function SectionList({ combination }: { combination: Combination }) {
  return (
    <ul class="taken">
      {combination.sections.map((s) => {
        const times = combination.meetings.filter((m) => m.course === s.course && m.section === s.section);
        const when = [...new Set(times.map((m) => `${m.day} ${m.start}–${m.end}`))].join(', ');
        return (
          <li key={`${s.course}${s.section}`}>
            <strong>
              {codeOf(s.course)} {s.section}
            </strong>{' '}
            {kindName(s.kind)}
            {when ? ` · ${when}` : ' · no fixed time'}
            {s.campus ? ` · ${s.campus}` : ''}
            {s.instructors.length ? ` · ${s.instructors.join(', ')}` : ''}
            {s.sameTime.length > 0 && <span class="muted"> (or {s.sameTime.join(', ')} at the same times)</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** The .ics of the combination shown: the tool asked for exactly these sections, as a file the browser saves. */
function Download({ state, term, combination }: { state: TimetableState; term: string; combination: Combination }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const input = { ...timetableInput(state)!, term, limit: 1, ics: true, sections: combination.sections.map((s) => `${s.course} ${s.section}`) };
      const ics = (await callTool<Timetable>('tn_course_timetable', input)).items[0]?.ics;
      if (!ics) throw new Error('This timetable is no longer available; reload the page.');
      const url = URL.createObjectURL(new Blob([ics], { type: 'text/calendar' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: `timetable-${term}.ics` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={save} disabled={busy}>
        Download .ics
      </button>
      <ErrorNote message={error} />
    </>
  );
}
