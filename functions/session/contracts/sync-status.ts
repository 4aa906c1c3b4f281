import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { DeviceIdInput, PendingDraftSchema, SessionEventSchema, CurrentSessionIdInput } from '../session-model.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const syncStatusContract = defineContract({
  ...READ,
  // Reading advances the device's own cursor, so repeating the call is not side-effect free.
  idempotent: false,
  name: 'session_sync_status',
  title: 'Check what a device has not seen',
  description:
    'For one device, returns whether the session changed since that device last looked; use it to poll from each client: the latest seq, the events it has not seen ' +
    '(up to 50, oldest first), which of them came from other devices, and pending drafts. The server remembers what it gave each ' +
    'device, so a CLI polling every 5 s or a web app polling every 60 s only needs its deviceId (or passes lastSeenSeq). ' +
    'Example: the CLI polls and sees the answer the web app received.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    deviceId: DeviceIdInput,
    lastSeenSeq: z.number().int().min(0).optional().describe('The last seq this device has; default: what the server last gave this device'),
  }),
  output: z.object({
    sessionId: z.ulid(),
    status: z.enum(['active', 'ended']),
    latestSeq: z.number().int(),
    lastSeenSeq: z.number().int().describe('Where this check started'),
    inSync: z.boolean().describe('true when the device has every event'),
    unseenCount: z.number().int(),
    unseen: z.array(SessionEventSchema),
    fromOtherDevices: z.array(z.ulid()).describe('eventIds among unseen written by another device'),
    pendingDrafts: z.array(PendingDraftSchema),
    hasMoreUnseen: z.boolean().describe('More unseen events than returned: page with tn_session_history from the last returned seq'),
    pollAfterSeconds: z.number().int().describe('Suggested wait before the next poll'),
  }),
  tags: ['tutoring', 'session', 'sync'],
  examples: [
    { description: 'Sync status of a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID, deviceId: 'cli-laptop' }, expect: 'NOT_FOUND' },
  ],
});
