import { useState } from 'preact/hooks';
import { callTool, messageOf, signedIn } from '../api.js';
import { ErrorNote } from '../components/status.js';
import { ChatView } from '../components/chat-view.js';
import { navigate } from '../router.js';
import { knownSessions, rememberSession, type KnownSession } from '../tutor-state.js';
import { useTitle } from '../use-tool.js';

export function TutorPage({ sessionId }: { sessionId: string | null }) {
  useTitle('Tutor');
  const [sessions, setSessions] = useState<KnownSession[]>(knownSessions);
  const [form, setForm] = useState({ course: '', topic: '', open: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const open = (session: KnownSession) => {
    setSessions(rememberSession(session));
    navigate(`/tutor?session=${encodeURIComponent(session.sessionId)}`);
  };
  const start = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const input = { ...(form.course.trim() ? { course: form.course.trim() } : {}), ...(form.topic.trim() ? { topic: form.topic.trim() } : {}) };
      const started = await callTool<{ sessionId: string }>('tn_session_start', input);
      open({ sessionId: started.sessionId, label: [form.course, form.topic].filter((s) => s.trim()).join(' · ') || 'General tutoring' });
      setForm({ ...form, course: '', topic: '' });
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const openById = (event: Event) => {
    event.preventDefault();
    if (form.open.trim()) open({ sessionId: form.open.trim(), label: `Session ${form.open.trim().slice(-6)}` });
  };
  return (
    <>
      <h1>Tutor</h1>
      <div class="layout">
        <aside aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">Sessions</h2>
          <ul class="sessions">
            {sessions.map((s) => (
              <li key={s.sessionId}>
                <a href={`/tutor?session=${encodeURIComponent(s.sessionId)}`} aria-current={s.sessionId === sessionId ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
            {sessions.length === 0 && <li class="muted">No sessions on this device yet.</li>}
          </ul>
          <form onSubmit={start}>
            <h3>New session</h3>
            <label for="s-course">Course (optional)</label>
            <input id="s-course" value={form.course} placeholder="sfu:CMPT 120" onInput={(e) => setForm({ ...form, course: e.currentTarget.value })} />
            <label for="s-topic">Topic (optional)</label>
            <input id="s-topic" value={form.topic} placeholder="loops" onInput={(e) => setForm({ ...form, topic: e.currentTarget.value })} />
            <p>
              <button type="submit" disabled={busy}>
                Start session
              </button>
            </p>
          </form>
          <form onSubmit={openById}>
            <label for="s-open">Open a session by id (e.g. from the CLI)</label>
            <input id="s-open" value={form.open} onInput={(e) => setForm({ ...form, open: e.currentTarget.value })} />
            <p>
              <button type="submit" class="secondary">
                Open
              </button>
            </p>
          </form>
          <ErrorNote message={error} />
          {!signedIn() && <p class="muted">Not signed in: sessions work anonymously only when the operator set a default model. <a href="/settings">Sign in</a></p>}
        </aside>
        <div>{sessionId ? <ChatView key={sessionId} sessionId={sessionId} /> : <p>Start a session or pick one to chat with the tutor.</p>}</div>
      </div>
    </>
  );
}
