import { findInstitution, nameKey } from '../../../functions/catalog/institutions.js';
import { useTool } from '../use-tool.js';
import type { SourceFreshness } from './transfer-sources.js';

/** An institution as tn_course_institutions lists it, with what the planner needs to offer it. */
export interface Institution {
  id: string;
  name: string;
  bctgCode?: string;
  sendsTransferRules?: boolean;
  sources?: { source: string; lastIngestedAt: string; lastVerifiedAt?: string }[];
}

/** Every institution Tutor Nexus knows (the transfer tools accept each by slug, code, alias or name), and how fresh the live sources are. */
export function useInstitutions() {
  return useTool<{ items: Institution[]; sourceFreshness?: SourceFreshness[] }>('tn_course_institutions', { limit: 100 });
}

/**
 * The institution a student typed: its slug, BC Transfer Guide code, an alias or its full name, in
 * any case and spacing ("Langara College", "LANG", "UBC Vancouver"), as the transfer tools read it.
 */
export function matchInstitution(institutions: Institution[], typed: string): Institution | undefined {
  const key = nameKey(typed);
  if (!key) return undefined;
  // The aliases are the transfer tools' own table; an institution only data names is matched by slug, code or name.
  const known = findInstitution(typed)?.id;
  return institutions.find((i) => i.id === known) ?? institutions.find((i) => [i.id, i.bctgCode, i.name].some((name) => name && nameKey(name) === key));
}

/** "Alexander College and Langara College", "A, B and C". */
export function namesList(institutions: Institution[]): string {
  const names = institutions.map((i) => i.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * A labelled text field with the institutions as suggestions, listed by full name, each with its code
 * and whether transfer rules are loaded for it; the student may type a name, a code or an alias.
 */
export function InstitutionPicker(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  options: Institution[];
  note: (institution: Institution) => string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const listId = `${props.id}-options`;
  return (
    <div class="picker">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        list={listId}
        value={props.value}
        autoComplete="off"
        placeholder="Name or code, e.g. Langara College"
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={props.describedBy}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <datalist id={listId}>
        {props.options.map((i) => (
          <option key={i.id} value={i.name}>
            {[i.bctgCode ?? i.id.toUpperCase(), props.note(i)].filter(Boolean).join(' · ')}
          </option>
        ))}
      </datalist>
    </div>
  );
}
