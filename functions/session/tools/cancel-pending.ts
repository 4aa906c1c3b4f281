import * as z from 'zod/v4';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { cancelPendingDrafts } from '../drafts.js';
import { ClientEventIdInput, DeviceIdInput, PendingDraftSchema, CurrentSessionIdInput } from '../session-model.js';
import { openSessionFor } from '../session-store.js';
import { EXAMPLE_SESSION_ID, WRITE } from './session-tool.js';

export const cancelPendingTool = defineTool({
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
  async handler(args, ctx) {
    const { sessionId } = await openSessionFor(ctx, args.sessionId);
    const store = ctx.services.store;
    const result = await cancelPendingDrafts(
      { store, now: ctx.now, retentionDays: ctx.services.config.tutor.retentionDays },
      { sessionId, clientEventIds: args.clientEventIds, deviceId: args.deviceId ?? null },
    );
    return {
      data: { cancelled: result.cancelled, notPending: result.notPending, eventsEmitted: result.events.map((e) => e.eventId) },
      hints: {
        confidence: [{ name: 'cancelled-atomically', value: 1 }],
        warnings: result.notPending.length
          ? [{ type: 'conflict' as const, severity: 'low' as const, message: `Not pending (already sent or cancelled): ${result.notPending.join(', ')}` }]
          : [],
        validityPeriod: 'indefinite',
      },
    };
  },
});
