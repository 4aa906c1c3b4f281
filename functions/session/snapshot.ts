import { createHash } from 'node:crypto';
import * as z from 'zod/v4';
import { timestampField } from '../mcp/tools/schema-helpers.js';
import { SessionEventSchema, SessionStateSchema, stateOf, type SessionEvent, type SessionRecord } from './session-model.js';

export const SNAPSHOT_SCHEMA_VERSION = 'tutor-nexus.session-export/1';

const CourseSnapshotSchema = z.object({
  ref: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  prerequisitesText: z.string().nullable(),
});

/** The portable form of a session (tn_session_export's output, tn_session_import's input). */
export const SessionSnapshotSchema = z.object({
  schemaVersion: z.literal(SNAPSHOT_SCHEMA_VERSION),
  session: SessionStateSchema.extend({ course: CourseSnapshotSchema.nullable() }),
  events: z.array(SessionEventSchema),
  exportedAt: timestampField(),
  checksum: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .describe('sha256 over the canonical JSON (keys sorted, no whitespace) of schemaVersion, session, events and exportedAt'),
  ownerProof: z
    .string()
    .max(512)
    .optional()
    .describe("The server's proof that the exporting user owned session.sessionId (present when its owner exported it): that user's import restores it under the same id"),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshotSchema>;

/** JSON with object keys sorted at every level: the same content always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  // As JSON.stringify: an undefined array element is null; an undefined value has no JSON form.
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function checksumOf(snapshot: Omit<SessionSnapshot, 'checksum'>): string {
  const { schemaVersion, session, events, exportedAt } = snapshot;
  return `sha256:${createHash('sha256').update(canonicalJson({ schemaVersion, session, events, exportedAt })).digest('hex')}`;
}

export function buildSnapshot(record: SessionRecord, events: SessionEvent[], exportedAt: Date, ownerProof?: string): SessionSnapshot {
  const body = {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    session: { ...stateOf(record), course: record.course },
    events,
    exportedAt: exportedAt.toISOString(),
  } as const;
  return { ...body, checksum: checksumOf(body), ...(ownerProof ? { ownerProof } : {}) };
}

/** The snapshot with every timestamp in UTC, as the server writes them (a snapshot may carry any RFC 3339 offset). */
export function inUtc(snapshot: SessionSnapshot): SessionSnapshot {
  const utc = (value: string) => new Date(value).toISOString();
  const { session } = snapshot;
  return {
    ...snapshot,
    session: {
      ...session,
      createdAt: utc(session.createdAt),
      lastActivityAt: utc(session.lastActivityAt),
      expiresAt: utc(session.expiresAt),
      endedAt: session.endedAt === null ? null : utc(session.endedAt),
    },
    events: snapshot.events.map((event) => ({ ...event, createdAt: utc(event.createdAt) })),
    exportedAt: utc(snapshot.exportedAt),
  };
}

/** Problems that make a snapshot unusable even with a matching checksum (seqs must run 1..n). */
export function snapshotProblems(snapshot: SessionSnapshot): string[] {
  const problems: string[] = [];
  snapshot.events.forEach((event, index) => {
    if (event.seq !== index + 1) problems.push(`events[${index}].seq is ${event.seq}, expected ${index + 1}`);
  });
  if (snapshot.session.latestSeq !== snapshot.events.length) {
    problems.push(`session.latestSeq is ${snapshot.session.latestSeq} but there are ${snapshot.events.length} events`);
  }
  return problems.slice(0, 10);
}
