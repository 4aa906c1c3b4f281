import { useEffect, useState } from 'preact/hooks';
import { ApiError, callTool, messageOf } from './api.js';

export interface TutorAvailability {
  answeredBy: 'byok' | 'operator' | null;
  needs: 'sign-in' | 'provider-key' | 'default-key' | null;
}

export interface SessionSummary {
  sessionId: string;
  status: 'active' | 'ended';
  context: { course: string | null; courseTitle: string | null; topic: string | null };
  preview: string | null;
  lastActivityAt: string;
  latestSeq: number;
}

interface ListPage {
  items: SessionSummary[];
  nextCursor?: string;
  hasMore: boolean;
  tutor: TutorAvailability;
}

export interface SessionList {
  items: SessionSummary[];
  tutor?: TutorAvailability;
  hasMore: boolean;
  loading: boolean;
  error?: string;
  /** The stored token was refused (expired or revoked). */
  refused: boolean;
  loadMore(): void;
}

/**
 * The account's sessions from every device (tn_session_list), first page on load and whenever
 * `reloadKey` changes, more on request; also whose model answers, signed in or not.
 */
export function useSessionList(signedIn: boolean, reloadKey: number): SessionList {
  const [pages, setPages] = useState<ListPage[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [refused, setRefused] = useState(false);
  const fetchPage = async (cursor?: string) => {
    setLoading(true);
    try {
      const page = await callTool<ListPage>('tn_session_list', { limit: 20, ...(cursor ? { cursor } : {}) });
      setPages((current) => (cursor ? [...current, page] : [page]));
      setError(undefined);
      setRefused(false);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'UNAUTHORIZED') setRefused(true);
      else setError(messageOf(e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void fetchPage(), [signedIn, reloadKey]);
  const last = pages.at(-1);
  return {
    items: pages.flatMap((page) => page.items),
    tutor: pages[0]?.tutor,
    hasMore: Boolean(last?.nextCursor),
    loading,
    error,
    refused,
    loadMore: () => last?.nextCursor && void fetchPage(last.nextCursor),
  };
}

/** How a session is named in lists: its first question, else its course and topic. */
export function sessionLabel(session: Pick<SessionSummary, 'preview' | 'context'>): string {
  return session.preview ?? ([session.context.course, session.context.topic].filter(Boolean).join(' · ') || 'General tutoring');
}
