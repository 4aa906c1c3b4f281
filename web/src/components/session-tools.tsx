import { callTool, messageOf } from '../api.js';
import { navigate } from '../router.js';
import { rememberSession } from '../tutor-state.js';

/** Export downloads the session's snapshot; import restores one (e.g. the CLI's) as the user's session. */
export function SessionTools({ sessionId, onError }: { sessionId: string; onError: (message: string | undefined) => void }) {
  const exportSession = async () => {
    try {
      const snapshot = await callTool<object>('tn_session_export', { sessionId });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([JSON.stringify(snapshot, null, 2)], { type: 'application/json' }));
      link.download = `tutor-nexus-session-${sessionId}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    } catch (e) {
      onError(messageOf(e));
    }
  };
  const importSession = async (file: File | undefined) => {
    if (!file) return;
    try {
      const snapshot = JSON.parse(await file.text()) as object;
      const imported = await callTool<{ sessionId: string }>('tn_session_import', { snapshot });
      rememberSession({ sessionId: imported.sessionId, label: `Imported ${imported.sessionId.slice(-6)}` });
      navigate(`/tutor?session=${encodeURIComponent(imported.sessionId)}`);
    } catch (e) {
      onError(e instanceof SyntaxError ? 'That file is not a session snapshot (JSON).' : messageOf(e));
    }
  };
  return (
    <details>
      <summary>Export or import</summary>
      <div class="row">
        <button type="button" class="secondary" onClick={() => void exportSession()}>
          Export this session
        </button>
        <div>
          <label for="import-file">Import a session snapshot</label>
          <input id="import-file" type="file" accept="application/json,.json" onChange={(e) => void importSession(e.currentTarget.files?.[0])} />
        </div>
      </div>
    </details>
  );
}
