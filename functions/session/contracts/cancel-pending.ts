import * as z from 'zod/v4';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { ClientEventIdInput, DeviceIdInput, PendingDraftSchema, CurrentSessionIdInput } from '../session-model.js';
import { EXAMPLE_SESSION_ID, WRITE } from './session-tool.js';

export const cancelPendingContract = defineContract({
  ...WRITE,
  name: 'session_cancel_pending',
  title: 'Cancel pending drafts',
  description:
    'Cancels draft messages (use it when the student discards a draft) that were saved (tn_session_ask with draft: true) but not sent: all of them, or those named by clientEventId. ' +
    'Returns what it cancelled and which named ids were not pending (already sent or cancelled). ' +
    'Example: the student discards the draft typed on their phone.',
  input: z.strictObject({
    sessionId: CurrentSessionIdInput,
    clientEventIds: z.array(ClientEventIdInput).min(1).max(50).optional().describe('Drafts to cancel; omit to cancel every pending draft'),
    deviceId: optionalField(DeviceIdInput),
  }),
  output: z.object({
    cancelled: z.array(PendingDraftSchema),
    notPending: z.array(z.string()).describe('Named clientEventIds that were not pending drafts'),
    eventsEmitted: z.array(z.ulid()),
  }),
  responseTime: 'fast',
  idempotent: true,
  tags: ['tutoring', 'session', 'drafts', 'sync'],
  examples: [{ description: 'Cancel drafts of a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
});
