import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import { useState } from 'preact/hooks';
import { callTool, messageOf } from '../api.js';
import type { listContract } from '../../../functions/session/contracts/list.js';
import type { byokListContract } from '../../../functions/user/contracts/byok-list.js';
import type { preferencesGetContract } from '../../../functions/user/contracts/preferences-get.js';
import { useTool } from '../use-tool.js';
import { ErrorNote, Panel } from './status.js';

const EMPTY = { provider: 'openai', apiKey: '', label: '', baseUrl: '', model: '' };

/** The user's own provider keys: shown masked to their last four, added here, deleted only after a confirmation. */
export function ByokPanel() {
  const [version, setVersion] = useState(0);
  const list = useTool<ToolOutput<typeof byokListContract>>('tn_user_byok_list', { limit: 100 }, version);
  // Whose model answers without a key of one's own, and which key is the tutor's when there are several.
  const tutor = useTool<ToolOutput<typeof listContract>>('tn_session_list', { limit: 1 }, version).data?.tutor;
  const preferences = useTool<ToolOutput<typeof preferencesGetContract>>('tn_user_preferences_get', {}, version).data;
  const [form, setForm] = useState(EMPTY);
  const [confirming, setConfirming] = useState<string>();
  const [error, setError] = useState<string>();
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      setVersion((v) => v + 1);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const add = (event: Event) => {
    event.preventDefault();
    const compatible = form.provider === 'openai-compatible';
    void act(async () => {
      await callTool('tn_user_byok_add', {
        provider: form.provider,
        apiKey: form.apiKey,
        ...(form.label.trim() ? { label: form.label.trim() } : {}),
        ...(compatible ? { baseUrl: form.baseUrl.trim(), model: form.model.trim() } : {}),
      });
      setForm(EMPTY);
    });
  };
  const makeDefault = (credentialId: string) => act(() => callTool('tn_user_preferences_set', { defaultCredentialId: credentialId }));
  const remove = (credentialId: string) =>
    act(async () => {
      await callTool('tn_user_byok_delete', { credentialId, confirm: 'DELETE_BYOK_CREDENTIAL' });
      setConfirming(undefined);
    });
  const input = (name: keyof typeof EMPTY) => ({ id: `k-${name}`, value: form[name], onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }) });
  const items = list.data?.items ?? [];
  return (
    <Panel title="Your API keys (BYOK)" id="byok" loading={list.loading && !list.data} error={list.error}>
      <ul class="results">
        {items.map((c) => (
          <li key={c.credentialId}>
            <strong>{c.label}</strong> · {c.provider} · <span aria-label={`key ending in ${c.last4}`}>••••{c.last4}</span>{' '}
            {items.length > 1 &&
              (c.credentialId === preferences?.defaultCredentialId ? (
                <span class="ok">· used by the tutor </span>
              ) : (
                <>
                  <button type="button" class="secondary" onClick={() => void makeDefault(c.credentialId)}>
                    Use {c.label} for the tutor
                  </button>{' '}
                </>
              ))}
            {confirming === c.credentialId ? (
              <span role="group" aria-label={`Confirm deleting ${c.label}`}>
                Delete this key for good?{' '}
                <button type="button" class="danger" onClick={() => void remove(c.credentialId)}>
                  Yes, delete {c.label}
                </button>{' '}
                <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button type="button" class="secondary" onClick={() => setConfirming(c.credentialId)}>
                Delete {c.label}
              </button>
            )}
          </li>
        ))}
        {items.length === 0 && tutor && (
          <li class={tutor.answeredBy === 'operator' ? 'muted' : 'notice'}>
            {tutor.answeredBy === 'operator'
              ? 'No keys saved: the tutor answers with this server\'s own model. Add a key to use your provider instead.'
              : 'No keys saved yet. The tutor needs one to answer you here: add an OpenAI, Anthropic or OpenAI-compatible key below.'}
          </li>
        )}
      </ul>
      {tutor?.needs === 'default-key' && <p class="notice">Choose which key the tutor uses: it needs one default among several.</p>}
      <form class="row" onSubmit={add}>
        <div>
          <label for="k-provider">Provider</label>
          <select {...input('provider')} onChange={(e) => setForm({ ...form, provider: e.currentTarget.value })}>
            <option value="openai">OpenAI</option>
            <option value="anthropic">Anthropic</option>
            <option value="openai-compatible">OpenAI-compatible</option>
          </select>
        </div>
        <div>
          <label for="k-apiKey">API key</label>
          <input {...input('apiKey')} type="password" autocomplete="off" />
        </div>
        <div>
          <label for="k-label">Label</label>
          <input {...input('label')} size={12} />
        </div>
        {form.provider === 'openai-compatible' && (
          <>
            <div>
              <label for="k-baseUrl">Base URL</label>
              <input {...input('baseUrl')} type="url" placeholder="http://127.0.0.1:11434/v1" />
            </div>
            <div>
              <label for="k-model">Model</label>
              <input {...input('model')} size={12} />
            </div>
          </>
        )}
        <button type="submit" disabled={!form.apiKey}>
          Add key
        </button>
      </form>
      <ErrorNote message={error} />
    </Panel>
  );
}
