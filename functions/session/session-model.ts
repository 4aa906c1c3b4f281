import * as z from 'zod/v4';
import { timestampField } from '../mcp/tools/schema-helpers.js';

const EVENT_TYPES = ['user_message', 'assistant_message', 'draft', 'draft_cancelled', 'session_ended'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const TUTORING_STYLES = ['socratic', 'direct', 'balanced'] as const;
export type TutoringStyle = (typeof TUTORING_STYLES)[number];

export const CurrentSessionIdInput = z
  .ulid()
  .optional()
  .describe('The session id (a ULID) returned by tn_session_start; omit to use your most recently active session');
export const DeviceIdInput = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
  .describe('A stable id of the device or client making the call, e.g. "cli-laptop" or "web"; lets other devices tell whose events are whose');
export const ClientEventIdInput = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
  .describe('Idempotency key chosen by the client (a ULID or UUID works): the same id with the same message returns the first result and charges nothing again');

/** One entry of the append-only log (seed 000's history item, plus who wrote it and why). */
export const SessionEventSchema = z.object({
  eventId: z.ulid(),
  seq: z.number().int().min(1).describe('Position in the session: 1, 2, 3, … with no gaps'),
  type: z.enum(EVENT_TYPES),
  createdAt: timestampField(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  deviceId: z.string().nullable().describe('Device that wrote the event; null when the client did not say'),
  clientEventId: z.string().nullable(),
  refersTo: z.ulid().nullable().describe('For a sent or cancelled draft, the draft event; for an answer, the question it answers'),
});
export type SessionEvent = z.infer<typeof SessionEventSchema>;

const SessionContextSchema = z.object({
  course: z.string().nullable().describe('Course reference the session is about, e.g. "sfu:CMPT 120"'),
  courseTitle: z.string().nullable(),
  topic: z.string().nullable(),
  tutoringStyle: z.enum(TUTORING_STYLES),
  language: z.string(),
});
type SessionContext = z.infer<typeof SessionContextSchema>;

export const SessionStateSchema = z.object({
  sessionId: z.ulid(),
  status: z.enum(['active', 'ended']),
  owner: z.enum(['user', 'anonymous']),
  context: SessionContextSchema,
  createdAt: timestampField(),
  lastActivityAt: timestampField(),
  expiresAt: timestampField(),
  endedAt: timestampField().nullable(),
  latestSeq: z.number().int().min(0),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

export const PendingDraftSchema = z.object({
  clientEventId: z.string(),
  eventId: z.ulid(),
  seq: z.number().int(),
  content: z.string(),
  deviceId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type PendingDraft = z.infer<typeof PendingDraftSchema>;

/** What the catalog said about the course when the session started; grounds every turn. */
export interface CourseSnapshot {
  ref: string;
  title: string | null;
  description: string | null;
  prerequisitesText: string | null;
}

/** The META item of a session, as stored. */
export interface SessionRecord {
  sessionId: string;
  ownerId: string | null;
  status: 'active' | 'ended';
  context: SessionContext;
  course: CourseSnapshot | null;
  createdAt: string;
  lastActivityAt: string;
  expiresAt: string;
  endedAt: string | null;
  lastSeq: number;
  /**
   * Every item of the partition carries a TTL at least this late. It runs half a retention period
   * ahead of expiresAt and is moved (with every item) when expiresAt catches up with it.
   */
  itemsExpireAt: string;
  /** Running summary of turns that no longer fit the prompt's budget. */
  summary: { text: string; throughSeq: number } | null;
  /** The start of the student's first message or draft, so a list of sessions can tell them apart (absent on older sessions). */
  preview?: string | null;
}

/** What a session list reads of each META item (the owner index's projection must carry these). */
export type ListedSession = Pick<SessionRecord, 'sessionId' | 'ownerId' | 'status' | 'context' | 'createdAt' | 'lastActivityAt' | 'expiresAt' | 'itemsExpireAt' | 'endedAt' | 'lastSeq' | 'preview'>;

export function stateOf(record: ListedSession): SessionState {
  return {
    sessionId: record.sessionId,
    status: record.status,
    owner: record.ownerId ? 'user' : 'anonymous',
    context: record.context,
    createdAt: record.createdAt,
    lastActivityAt: record.lastActivityAt,
    expiresAt: effectiveExpiry(record),
    endedAt: record.endedAt,
    latestSeq: record.lastSeq,
  };
}

/** One of the caller's sessions as tn_session_list shows it: its state and what it started with. */
export const SessionSummarySchema = SessionStateSchema.extend({
  preview: z.string().nullable().describe('The start of the first question (or draft); null before one was written'),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

const PREVIEW_CHARS = 120;

/** The preview a session gets from the first student message among these events (a sent question or a draft), if any. */
export function previewFrom(events: Pick<SessionEvent, 'role' | 'type' | 'content'>[]): string | undefined {
  const first = events.find((event) => event.role === 'user' && (event.type === 'user_message' || event.type === 'draft'));
  if (!first) return undefined;
  const flat = first.content.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1).trimEnd()}…` : flat;
}

export function summaryOf(record: ListedSession): SessionSummary {
  return { ...stateOf(record), preview: record.preview ?? null };
}

export const DAY_MS = 86_400_000;

export function expiryAfter(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() + retentionDays * DAY_MS);
}

/** The item TTL that goes with an expiry: half a retention period of slack, so items never die first. */
export function itemsExpiryFor(expiresAt: string, retentionDays: number): string {
  return new Date(Date.parse(expiresAt) + (retentionDays * DAY_MS) / 2).toISOString();
}

/**
 * When the session stops being readable: its expiry, or earlier if its items' TTL was not moved in
 * time (a failed refresh). Readable therefore always means complete.
 */
export function effectiveExpiry(record: Pick<SessionRecord, 'expiresAt' | 'itemsExpireAt'>): string {
  return Date.parse(record.itemsExpireAt) < Date.parse(record.expiresAt) ? record.itemsExpireAt : record.expiresAt;
}

export const epochSeconds = (iso: string | Date) => Math.ceil(new Date(iso).getTime() / 1000);
