import { bindTool } from '../../mcp/tools/define-tool.js';
import { ToolError } from '../../mcp/tools/errors.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { snapshotLimitIssues } from '../import-limits.js';
import { provesOwner } from '../owner-proof.js';
import { importSnapshot } from '../session-import.js';
import { checksumOf, inUtc, snapshotProblems } from '../snapshot.js';
import { importContract } from '../contracts/import.js';

export const importTool = bindTool(importContract, async (args, ctx) => {
  const ownerId = requireUserId(ctx);
  const { snapshot } = args;
  if (checksumOf(snapshot) !== snapshot.checksum) {
    throw new ToolError(
      'UNPROCESSABLE_ENTITY',
      'The snapshot\'s checksum does not match its content: it was modified or truncated.',
      { reason: 'checksum mismatch', fields: [{ field: 'snapshot.checksum', message: 'does not match the canonical JSON of the snapshot' }] },
      'Export the session again with tn_session_export and import that snapshot unchanged.',
    );
  }
  const problems = snapshotProblems(snapshot);
  if (problems.length) {
    throw new ToolError('UNPROCESSABLE_ENTITY', 'The snapshot is inconsistent.', { reason: problems.join('; '), fields: [{ field: 'snapshot.events', message: problems[0]! }] });
  }
  // No more than the tools could have written: a message an ask would refuse is refused here too.
  const tooBig = snapshotLimitIssues(snapshot);
  if (tooBig.length) throw ToolError.badRequest(`The snapshot holds more than a session can: ${tooBig[0]!.field} ${tooBig[0]!.message}.`, tooBig);
  const result = await importSnapshot(ctx.services.store, {
    snapshot: inUtc(snapshot),
    ownerId,
    provenOwner: provesOwner(ctx.services.cursors, snapshot.ownerProof, ownerId, snapshot.session.sessionId),
    now: ctx.now(),
    retentionDays: ctx.services.config.tutor.retentionDays,
  });
  return {
    data: result,
    hints: {
      confidence: [{ name: 'checksum-verified', value: 1 }],
      nextActions: [{ action: 'resume', priority: 'high', tool: 'tn_session_resume', description: 'continue the session', data: { sessionId: result.sessionId } }],
      validityPeriod: 'long',
    },
  };
});
