import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { CurrentSessionIdInput } from '../session-model.js';
import { SessionSnapshotSchema } from '../snapshot.js';
import { EXAMPLE_SESSION_ID, READ } from './session-tool.js';

export const exportContract = defineContract({
  ...READ,
  responseTime: 'medium',
  name: 'session_export',
  title: 'Export a session snapshot',
  description:
    'Returns a portable snapshot of a session; use it to hand a session to the web app or keep an archive. It holds the schema version, session state and course, every event ' +
    'in seq order, exportedAt and a sha256 checksum over the canonical JSON. tn_session_import verifies and restores it. ' +
    'Example: export the session the student ran in the CLI to open it in the web app.',
  input: z.strictObject({ sessionId: CurrentSessionIdInput }),
  output: SessionSnapshotSchema,
  tags: ['tutoring', 'session', 'sync', 'export'],
  examples: [{ description: 'Export a session that does not exist', input: { sessionId: EXAMPLE_SESSION_ID }, expect: 'NOT_FOUND' }],
});
