/** What the browser remembers for the tutor: its device id, the sessions it has opened, how often it polls. */

export interface KnownSession {
  sessionId: string;
  label: string;
}

const read = <T>(key: string, fallback: T): T => {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
};

/** Stable per browser, so the server can tell this device's events from the CLI's. */
export function deviceId(): string {
  let id = localStorage.getItem('tn-device-id');
  if (!id) {
    id = `web-${crypto.randomUUID().slice(0, 8)}`;
    localStorage.setItem('tn-device-id', id);
  }
  return id;
}

/** 60 s by default (the design's web poll); `tn-poll-seconds` in localStorage changes it (tests use 1 s). */
export function pollSeconds(): number {
  const configured = Number(localStorage.getItem('tn-poll-seconds'));
  return Number.isFinite(configured) && configured >= 1 ? configured : 60;
}

export function knownSessions(): KnownSession[] {
  return read<KnownSession[]>('tn-sessions', []);
}

export function rememberSession(session: KnownSession): KnownSession[] {
  const next = [session, ...knownSessions().filter((s) => s.sessionId !== session.sessionId)].slice(0, 50);
  localStorage.setItem('tn-sessions', JSON.stringify(next));
  return next;
}

export const newClientEventId = () => `web-${crypto.randomUUID()}`;
