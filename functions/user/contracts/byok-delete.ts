import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';

export const CONFIRM_DELETE_BYOK = 'DELETE_BYOK_CREDENTIAL';

export const byokDeleteContract = defineContract({
  name: 'user_byok_delete',
  domain: 'user',
  title: 'Delete a BYOK credential',
  description:
    'REQUIRES EXPLICIT USER INSTRUCTION. Permanently deletes one stored LLM API key; if it was the default credential, the default ' +
    'is cleared too. Use this only when the user asks to remove a key. Returns the deleted credentialId. Deleting a key that does ' +
    `not exist is NOT_FOUND. Example: delete credential 01JD… with confirm "${CONFIRM_DELETE_BYOK}".`,
  version: '1.0.0',
  input: z.strictObject({
    credentialId: z.ulid().describe('The credentialId to delete, from tn_user_byok_list'),
    confirm: z.literal(CONFIRM_DELETE_BYOK).describe(`Must be exactly "${CONFIRM_DELETE_BYOK}" to confirm the user asked for this deletion`),
  }),
  output: z.object({
    credentialId: z.ulid(),
    deleted: z.literal(true),
    deletedAt: z.iso.datetime(),
  }),
  category: 'mutation',
  permissions: ['byok:write'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: false,
  destructive: true,
  tags: ['byok', 'credentials', 'settings'],
  examples: [
    {
      description: 'Deleting an unknown credential is NOT_FOUND',
      input: { credentialId: '01JD0000000000000000000000', confirm: CONFIRM_DELETE_BYOK },
      expect: 'NOT_FOUND',
    },
    { description: 'Without the confirmation literal the call is refused', input: { credentialId: '01JD0000000000000000000000' }, expect: 'BAD_REQUEST' },
  ],
});
