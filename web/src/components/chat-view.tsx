import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, callTool, messageOf } from '../api.js';
import { callToolStreaming } from '../mcp-stream.js';
import { settingsLink } from '../signed-in.js';
import { deviceId, newClientEventId, pollSeconds } from '../tutor-state.js';
import type { TutorAvailability } from '../use-session-list.js';
import { AnswerText } from './answer-text.js';
import { ErrorNote } from './status.js';
import { Composer } from './composer.js';
import { SessionTools } from './session-tools.js';

export interface SessionEvent {
  seq: number;
  type: string;
  role: 'user' | 'assistant';
  content: string;
  deviceId: string | null;
  clientEventId?: string | null;
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

interface AskOutput {
  response: string;
  status: string;
  questionSeq: number;
  answerSeq: number | null;
}

const PAGE = 20;

/** A message keeps its element from the moment it streams to when the server's copy replaces it. */
const messageKey = (e: Pick<SessionEvent, 'role' | 'clientEventId' | 'seq'>) => `${e.role}-${e.clientEventId ?? e.seq}`;

export function ChatView(props: { sessionId: string; tutor?: TutorAvailability; onActivity?: () => void }) {
  const { sessionId } = props;
  const [events, setEvents] = useState<SessionEvent[]>([]);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [info, setInfo] = useState<Resumed['state']>();
  const [streaming, setStreaming] = useState<{ question: string; answer: string; clientEventId: string }>();
  /** The answer that streamed last: its element is the live region screen readers follow. */
  const [liveKey, setLiveKey] = useState<string>();
  const [keptAsDraft, setKeptAsDraft] = useState<TutorAvailability['needs']>(null);
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

  /** Fetches what this device has not seen; resolves with those events. */
  const refresh = async (): Promise<SessionEvent[]> => {
    const seen: SessionEvent[] = [];
    await guard(async () => {
      const status = await callTool<SyncStatus>('tn_session_sync_status', { sessionId, deviceId: device });
      merge(status.unseen);
      seen.push(...status.unseen);
      setDrafts(status.pendingDrafts);
      if (status.hasMoreUnseen) {
        const last = status.unseen.at(-1)?.seq ?? 0;
        const more = await callTool<{ items: SessionEvent[] }>('tn_session_history', { sessionId, afterSeq: last, limit: 100 });
        merge(more.items);
        seen.push(...more.items);
      }
      setRefreshedAt(new Date().toLocaleTimeString());
    });
    return seen;
  };

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

  /** A question no model can answer yet is kept as a draft, to send once a key is added. */
  const keepAsDraft = async (message: string, needs: TutorAvailability['needs']) => {
    await callTool('tn_session_ask', { sessionId, message, draft: true, clientEventId: newClientEventId(), deviceId: device });
    setKeptAsDraft(needs);
    await refresh();
    props.onActivity?.();
  };
  /** Whether a model answers now: asked again when an ask is refused, since a key may have been removed meanwhile. */
  const noModel = async (): Promise<TutorAvailability['needs']> => {
    const { tutor } = await callTool<{ tutor: TutorAvailability }>('tn_session_list', { limit: 1 });
    return tutor.answeredBy ? null : tutor.needs;
  };

  /** Resolves true once the message is the server's (sent, or kept as a draft); false leaves it in the box. */
  const send = async (message: string, draft?: Draft): Promise<boolean> => {
    const clientEventId = draft?.clientEventId ?? newClientEventId();
    let kept = false;
    await guard(async () => {
      if (props.tutor && !props.tutor.answeredBy && props.tutor.needs !== 'sign-in') {
        // A draft being sent stays the draft it is.
        if (draft) setKeptAsDraft(props.tutor.needs);
        else await keepAsDraft(message, props.tutor.needs);
        kept = true;
        return;
      }
      busy.current = true;
      setStreaming({ question: message, answer: '', clientEventId });
      setLiveKey(messageKey({ role: 'assistant', clientEventId, seq: 0 }));
      try {
        const answer = await callToolStreaming<AskOutput>('tn_session_ask', { sessionId, message, clientEventId, deviceId: device }, (piece) =>
          setStreaming((s) => s && { ...s, answer: s.answer + piece }),
        );
        // The streamed pair becomes the session's events in place (same keys), before the server's copy arrives.
        const at = new Date().toISOString();
        merge([
          { seq: answer.questionSeq, type: 'user_message', role: 'user', content: message, deviceId: device, clientEventId, createdAt: at },
          ...(answer.answerSeq ? [{ seq: answer.answerSeq, type: 'assistant_message', role: 'assistant' as const, content: answer.response, deviceId: device, clientEventId, createdAt: at }] : []),
        ]);
        kept = true;
        setKeptAsDraft(null);
      } catch (e) {
        const needs = e instanceof ApiError && e.code === 'UNPROCESSABLE_ENTITY' ? await noModel().catch(() => null) : null;
        if (!needs) throw e;
        if (draft) setKeptAsDraft(needs);
        else await keepAsDraft(message, needs);
        kept = true;
      } finally {
        busy.current = false;
        setStreaming(undefined);
        // A question the server stored before failing (the provider's error) is not typed again.
        if ((await refresh()).some((e) => e.type === 'user_message' && e.clientEventId === clientEventId)) kept = true;
        props.onActivity?.();
      }
    });
    return kept;
  };
  const saveDraft = async (message: string): Promise<boolean> => {
    let saved = false;
    await guard(async () => {
      await callTool('tn_session_ask', { sessionId, message, draft: true, clientEventId: newClientEventId(), deviceId: device });
      saved = true;
      await refresh();
    });
    return saved;
  };
  const discard = (draft: Draft) =>
    guard(async () => {
      await callTool('tn_session_cancel_pending', { sessionId, clientEventIds: [draft.clientEventId], deviceId: device });
      setDrafts((ds) => ds.filter((d) => d.clientEventId !== draft.clientEventId));
    });

  const messages = events.filter((e) => e.type === 'user_message' || e.type === 'assistant_message');
  const shown: (SessionEvent & { pending?: boolean })[] = streaming
    ? [
        ...messages,
        { seq: -2, type: 'user_message', role: 'user', content: streaming.question, deviceId: device, clientEventId: streaming.clientEventId, createdAt: '' },
        { seq: -1, type: 'assistant_message', role: 'assistant', content: streaming.answer, deviceId: device, clientEventId: streaming.clientEventId, createdAt: '', pending: true },
      ]
    : messages;
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
        {shown.map((e) => {
          const key = messageKey(e);
          const live = key === liveKey;
          return (
            <div
              key={key}
              class={`msg ${e.role}`}
              aria-live={live ? 'polite' : undefined}
              aria-busy={e.pending ? 'true' : undefined}
            >
              <span class="meta">
                {e.role === 'user' ? `You${e.deviceId && e.deviceId !== device ? ` (${e.deviceId})` : ''}` : e.pending ? 'Tutor (answering…)' : 'Tutor'}
              </span>
              {e.role === 'assistant' ? <AnswerText text={e.content} /> : <div class="plain">{e.content}</div>}
            </div>
          );
        })}
      </div>
      {keptAsDraft && (
        <p class="notice" role="status">
          Your question is kept as a draft below: {keptAsDraft === 'default-key' ? 'choose which key the tutor uses' : 'add your provider key'} in{' '}
          <a href={settingsLink(`/tutor?session=${encodeURIComponent(sessionId)}`)}>Settings</a>, then send it.
        </p>
      )}
      {drafts.length > 0 && (
        <section aria-labelledby="drafts-heading">
          <h3 id="drafts-heading">Drafts</h3>
          <ul>
            {drafts.map((d) => (
              <li key={d.clientEventId}>
                {d.content}{' '}
                <button type="button" onClick={() => void send(d.content, d)}>
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
      {info?.status !== 'ended' && <Composer disabled={Boolean(streaming)} onSend={(m) => send(m)} onDraft={saveDraft} />}
      <SessionTools sessionId={sessionId} onError={setError} />
    </section>
  );
}
