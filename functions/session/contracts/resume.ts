import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { DeviceIdInput, PendingDraftSchema, SessionEventSchema, CurrentSessionIdInput, SessionStateSchema } from '../session-model.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const resumeContract = defineContract({
  ...READ,
  name: 'session_resume',
  title: 'Resume a session',
  description:
    'Reconnects to an existing session from any device; use it when a client opens a session it did not just create. Returns its state (active or ended, course, style, expiry), the latest seq, ' +
    'pending drafts and the most recent events, so the conversation can continue where it stopped. Example: the student reopens the ' +
    'web app and continues the session started in the CLI.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    recent: z.number().int().min(0).max(100).default(20).describe('How many of the latest events to return (0-100, default 20)'),
    deviceId: DeviceIdInput.optional().describe('When given, this device counts as caught up to the latest seq (see tn_session_sync_status)'),
  }),
  output: z.object({
    state: SessionStateSchema,
    latestSeq: z.number().int(),
    pendingDrafts: z.array(PendingDraftSchema),
    recentEvents: z.array(SessionEventSchema),
  }),
  tags: ['tutoring', 'session', 'sync'],
  examples: [{ description: 'Resume a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
});
