import { useEffect, useState } from 'preact/hooks';
import { callTool, messageOf } from '../api.js';
import { ErrorNote, Loading } from '../components/status.js';
import { preloadMarkdown } from '../components/answer-text.js';
import { ChatView } from '../components/chat-view.js';
import { NoModelNote, SignInFirst } from '../components/tutor-notes.js';
import { navigate } from '../router.js';
import { settingsLink, useSignedIn } from '../signed-in.js';
import { knownSessions, rememberSession, type KnownSession } from '../tutor-state.js';
import { sessionLabel, useSessionList, type SessionSummary } from '../use-session-list.js';
import { useTitle } from '../use-tool.js';

/**
 * Signed in, the sessions are the account's, from every device (tn_session_list). Signed out, only
 * the operator's model can answer: without one the page asks for sign-in before anything is typed;
 * with one, sessions are anonymous and this browser remembers them.
 */
export function TutorPage({ sessionId }: { sessionId: string | null }) {
  useTitle('Tutor');
  useEffect(() => void preloadMarkdown(), []);
  const signedIn = useSignedIn();
  const [reloadKey, setReloadKey] = useState(0);
  const list = useSessionList(signedIn, reloadKey);
  const [deviceSessions, setDeviceSessions] = useState<KnownSession[]>(knownSessions);
  const here = `/tutor${sessionId ? `?session=${encodeURIComponent(sessionId)}` : ''}`;
  const open = (id: string, label: string) => {
    if (signedIn) setReloadKey((n) => n + 1);
    else setDeviceSessions(rememberSession({ sessionId: id, label }));
    navigate(`/tutor?session=${encodeURIComponent(id)}`);
  };
  const tutor = list.tutor;
  const signInFirst = list.refused || (!signedIn && tutor?.needs === 'sign-in');
  const canStart = Boolean(tutor) && !signInFirst;
  return (
    <>
      <h1>Tutor</h1>
      <div class="layout">
        <aside aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">{signedIn ? 'Your sessions' : 'Sessions on this device'}</h2>
          {signedIn ? (
            <AccountSessions items={list.items} current={sessionId} loading={list.loading} hasMore={list.hasMore} loadMore={list.loadMore} />
          ) : (
            <ul class="sessions">
              {deviceSessions.map((s) => (
                <li key={s.sessionId}>
                  <a href={`/tutor?session=${encodeURIComponent(s.sessionId)}`} aria-current={s.sessionId === sessionId ? 'page' : undefined}>
                    {s.label}
                  </a>
                </li>
              ))}
              {deviceSessions.length === 0 && <li class="muted">No sessions on this device yet.</li>}
            </ul>
          )}
          {canStart && <StartForms onOpen={open} />}
          {!signedIn && canStart && (
            <p class="muted">
              Sessions started without signing in stay on this device. <a href={settingsLink(here)}>Sign in</a> to see yours on every device.
            </p>
          )}
          <ErrorNote message={list.error} />
        </aside>
        <div>
          {!tutor && list.loading && !list.refused ? (
            <Loading what="the tutor" />
          ) : signInFirst ? (
            <SignInFirst back={here} expired={list.refused} />
          ) : (
            <>
              {signedIn && tutor && <NoModelNote tutor={tutor} back={here} />}
              {sessionId ? (
                <ChatView key={sessionId} sessionId={sessionId} tutor={tutor} onActivity={() => setReloadKey((n) => n + 1)} />
              ) : (
                <p>Start a session or pick one to chat with the tutor.</p>
              )}
            </>
          )}
        </div>
      </div>
    </>
  );
}

function AccountSessions(props: { items: SessionSummary[]; current: string | null; loading: boolean; hasMore: boolean; loadMore: () => void }) {
  return (
    <>
      <ul class="sessions">
        {props.items.map((s) => (
          <li key={s.sessionId}>
            <a href={`/tutor?session=${encodeURIComponent(s.sessionId)}`} aria-current={s.sessionId === props.current ? 'page' : undefined}>
              {sessionLabel(s)}
            </a>
            <span class="muted session-meta">
              {s.status === 'ended' ? 'Ended · ' : ''}
              <time dateTime={s.lastActivityAt}>{new Date(s.lastActivityAt).toLocaleString()}</time>
            </span>
          </li>
        ))}
        {props.items.length === 0 && !props.loading && <li class="muted">No sessions yet.</li>}
      </ul>
      {props.hasMore && (
        <button type="button" class="secondary" disabled={props.loading} onClick={props.loadMore}>
          Show more sessions
        </button>
      )}
    </>
  );
}

function StartForms({ onOpen }: { onOpen: (sessionId: string, label: string) => void }) {
  const [form, setForm] = useState({ course: '', topic: '', open: '' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const start = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const input = { ...(form.course.trim() ? { course: form.course.trim() } : {}), ...(form.topic.trim() ? { topic: form.topic.trim() } : {}) };
      const started = await callTool<{ sessionId: string }>('tn_session_start', input);
      onOpen(started.sessionId, [form.course, form.topic].filter((s) => s.trim()).join(' · ') || 'General tutoring');
      setForm({ ...form, course: '', topic: '' });
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const openById = (event: Event) => {
    event.preventDefault();
    const id = form.open.trim();
    if (id) onOpen(id, `Session ${id.slice(-6)}`);
  };
  return (
    <>
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
    </>
  );
}
