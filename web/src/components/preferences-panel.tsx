import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import { useEffect, useState } from 'preact/hooks';
import { callTool, messageOf } from '../api.js';
import type { preferencesGetContract } from '../../../functions/user/contracts/preferences-get.js';
import { applyTheme } from '../theme.js';
import { useTool } from '../use-tool.js';
import { ErrorNote, Panel } from './status.js';

type Preferences = ToolOutput<typeof preferencesGetContract>;

const CHOICES = {
  theme: ['system', 'light', 'dark'],
  tutoringStyle: ['socratic', 'balanced', 'direct'],
  responseLength: ['brief', 'standard', 'detailed'],
} as const;
const LABELS = { theme: 'Theme', tutoringStyle: 'Tutoring style', responseLength: 'Answer length' } as const;

export function PreferencesPanel() {
  const loaded = useTool<Preferences>('tn_user_preferences_get', {});
  const [prefs, setPrefs] = useState<Preferences>();
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => loaded.data && setPrefs(loaded.data), [loaded.data]);
  const save = async (event: Event) => {
    event.preventDefault();
    if (!prefs) return;
    setError(undefined);
    try {
      const saved = await callTool<Preferences>('tn_user_preferences_set', {
        theme: prefs.theme,
        tutoringStyle: prefs.tutoringStyle,
        responseLength: prefs.responseLength,
        language: prefs.language,
      });
      applyTheme(saved.theme);
      setNote('Preferences saved.');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Panel title="Preferences" id="prefs" loading={loaded.loading && !prefs} error={loaded.error}>
      {prefs && (
        <form class="row" onSubmit={save}>
          {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((name) => (
            <div key={name}>
              <label for={`p-${name}`}>{LABELS[name]}</label>
              <select id={`p-${name}`} value={prefs[name]} onChange={(e) => setPrefs({ ...prefs, [name]: e.currentTarget.value })}>
                {CHOICES[name].map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div>
            <label for="p-language">Language</label>
            <input id="p-language" size={6} value={prefs.language} onInput={(e) => setPrefs({ ...prefs, language: e.currentTarget.value })} />
          </div>
          <button type="submit">Save preferences</button>
        </form>
      )}
      <p role="status" class="ok">
        {note}
      </p>
      <ErrorNote message={error} />
    </Panel>
  );
}
