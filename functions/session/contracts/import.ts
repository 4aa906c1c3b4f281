import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { SessionSnapshotSchema } from '../snapshot.js';
import { WRITE } from './session-tool.js';

export const importContract = defineContract({
  ...WRITE,
  access: 'user',
  name: 'session_import',
  title: 'Import a session snapshot',
  description:
    'Restores a snapshot made by tn_session_export as the caller\'s session; use it when a session is not on this server (expired or exported elsewhere). Returns its sessionId (the original one for its owner, else one of the caller\'s own), status and latest seq. ' +
    'The snapshot is verified first (checksum, seqs 1..n, no more than the tools write); importing it again changes nothing ("already-present"). ' +
    'Example: the web app imports the snapshot the CLI exported after the session expired on the server.',
  input: z.strictObject({ snapshot: SessionSnapshotSchema.describe('The exact output of tn_session_export') }),
  output: z.object({
    status: z.enum(['imported', 'already-present']),
    sessionId: z.ulid(),
    latestSeq: z.number().int(),
    expiresAt: z.iso.datetime(),
  }),
  responseTime: 'medium',
  idempotent: true,
  rateLimit: { maxCalls: 20, windowMs: 3_600_000 },
  tags: ['tutoring', 'session', 'sync', 'export'],
  examples: [
    {
      description: 'A snapshot whose checksum does not match is refused',
      input: {
        snapshot: {
          schemaVersion: 'tutor-nexus.session-export/1',
          session: {
            sessionId: '01JD0000000000000000000000',
            status: 'active',
            owner: 'user',
            context: { course: null, courseTitle: null, topic: 'loops', tutoringStyle: 'socratic', language: 'en' },
            createdAt: '2026-11-22T10:00:00.000Z',
            lastActivityAt: '2026-11-22T10:00:00.000Z',
            expiresAt: '2026-12-22T10:00:00.000Z',
            endedAt: null,
            latestSeq: 0,
            course: null,
          },
          events: [],
          exportedAt: '2026-11-22T10:05:00.000Z',
          checksum: `sha256:${'0'.repeat(64)}`,
        },
      },
      expect: 'UNPROCESSABLE_ENTITY',
    },
  ],
});
