import { useEffect, useRef, useState } from 'preact/hooks';
import { callTool, messageOf } from '../api.js';
import { callToolStreaming } from '../mcp-stream.js';
import { deviceId, newClientEventId, pollSeconds } from '../tutor-state.js';
import { ErrorNote } from './status.js';
import { Composer } from './composer.js';
import { SessionTools } from './session-tools.js';

export interface SessionEvent {
  seq: number;
  type: string;
  role: 'user' | 'assistant';
  content: string;
  deviceId: string | null;
  createdAt: string;
}
export interface Draft {
  clientEventId: string;
  content: string;
}
interface Resumed {
  state: { status: string; context: { course: string | null; topic: string | null } };
  latestSeq: number;
  pendingDrafts: Draft[];
  recentEvents: SessionEvent[];
}
interface SyncStatus {
  status: string;
  unseen: SessionEvent[];
  pendingDrafts: Draft[];
  hasMoreUnseen: boolean;
}

const PAGE = 20;

export function ChatView({ sessionId }: { sessionId: string }) {
  const [events, setEvents] = useState<SessionEvent[]>([]);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [info, setInfo] = useState<Resumed['state']>();
  const [streaming, setStreaming] = useState<{ question: string; answer: string }>();
  const [error, setError] = useState<string>();
  const [refreshedAt, setRefreshedAt] = useState<string>();
  const device = deviceId();
  const busy = useRef(false);

  const merge = (incoming: SessionEvent[]) =>
    setEvents((current) => {
      const bySeq = new Map(current.map((e) => [e.seq, e]));
      incoming.forEach((e) => bySeq.set(e.seq, e));
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    });
  const guard = async (work: () => Promise<void>) => {
    try {
      setError(undefined);
      await work();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const refresh = () =>
    guard(async () => {
      const status = await callTool<SyncStatus>('tn_session_sync_status', { sessionId, deviceId: device });
      merge(status.unseen);
      setDrafts(status.pendingDrafts);
      if (status.hasMoreUnseen) {
        const last = status.unseen.at(-1)?.seq ?? 0;
        const more = await callTool<{ items: SessionEvent[] }>('tn_session_history', { sessionId, afterSeq: last, limit: 100 });
        merge(more.items);
      }
      setRefreshedAt(new Date().toLocaleTimeString());
    });

  useEffect(() => {
    void guard(async () => {
      const resumed = await callTool<Resumed>('tn_session_resume', { sessionId, recent: PAGE, deviceId: device });
      setInfo(resumed.state);
      setDrafts(resumed.pendingDrafts);
      merge(resumed.recentEvents);
    });
    // Another device (the CLI) may add to the session: look every poll interval, unless a turn is streaming.
    const timer = setInterval(() => !busy.current && void refresh(), pollSeconds() * 1000);
    return () => clearInterval(timer);
  }, [sessionId]);

  const firstSeq = events[0]?.seq ?? 1;
  const loadEarlier = () =>
    guard(async () => {
      const afterSeq = Math.max(0, firstSeq - 1 - PAGE);
      const page = await callTool<{ items: SessionEvent[] }>('tn_session_history', { sessionId, afterSeq, limit: firstSeq - 1 - afterSeq });
      merge(page.items);
    });

  const send = (message: string, clientEventId = newClientEventId()) =>
    guard(async () => {
      busy.current = true;
      setStreaming({ question: message, answer: '' });
      try {
        await callToolStreaming('tn_session_ask', { sessionId, message, clientEventId, deviceId: device }, (piece) =>
          setStreaming((s) => s && { ...s, answer: s.answer + piece }),
        );
      } finally {
        busy.current = false;
        setStreaming(undefined);
        await refresh();
      }
    });
  const saveDraft = (message: string) =>
    guard(async () => {
      await callTool('tn_session_ask', { sessionId, message, draft: true, clientEventId: newClientEventId(), deviceId: device });
      await refresh();
    });
  const discard = (draft: Draft) =>
    guard(async () => {
      await callTool('tn_session_cancel_pending', { sessionId, clientEventIds: [draft.clientEventId], deviceId: device });
      setDrafts((ds) => ds.filter((d) => d.clientEventId !== draft.clientEventId));
    });

  const messages = events.filter((e) => e.type === 'user_message' || e.type === 'assistant_message');
  return (
    <section aria-labelledby="chat-heading">
      <h2 id="chat-heading">{info ? [info.context.course, info.context.topic].filter(Boolean).join(' · ') || 'Tutoring session' : 'Session'}</h2>
      <p class="muted">
        Session <code>{sessionId}</code>
        {info?.status === 'ended' ? ' (ended)' : ''}
      </p>
      <div class="row">
        <button type="button" class="secondary" onClick={() => void refresh()}>
          Refresh
        </button>
        {firstSeq > 1 && (
          <button type="button" class="secondary" onClick={() => void loadEarlier()}>
            Load earlier messages
          </button>
        )}
        <span class="muted" role="status">
          {refreshedAt ? `Updated ${refreshedAt}` : ''}
        </span>
      </div>
      <ErrorNote message={error} />
      <div class="chat" aria-label="Conversation" role="log">
        {messages.map((e) => (
          <div key={e.seq} class={`msg ${e.role}`}>
            <span class="meta">
              {e.role === 'user' ? `You${e.deviceId && e.deviceId !== device ? ` (${e.deviceId})` : ''}` : 'Tutor'}
            </span>
            {e.content}
          </div>
        ))}
        {streaming && (
          <>
            <div class="msg user">
              <span class="meta">You</span>
              {streaming.question}
            </div>
            <div class="msg assistant" aria-busy="true">
              <span class="meta">Tutor (answering…)</span>
              {streaming.answer}
            </div>
          </>
        )}
      </div>
      {drafts.length > 0 && (
        <section aria-labelledby="drafts-heading">
          <h3 id="drafts-heading">Drafts</h3>
          <ul>
            {drafts.map((d) => (
              <li key={d.clientEventId}>
                {d.content}{' '}
                <button type="button" onClick={() => void send(d.content, d.clientEventId)}>
                  Send draft
                </button>{' '}
                <button type="button" class="secondary" onClick={() => void discard(d)}>
                  Discard draft
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {info?.status !== 'ended' && <Composer disabled={Boolean(streaming)} onSend={send} onDraft={saveDraft} />}
      <SessionTools sessionId={sessionId} onError={setError} />
    </section>
  );
}
