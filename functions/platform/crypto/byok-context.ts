/**
 * The KMS encryption context of a BYOK envelope. The stack's KMS grants require exactly these keys,
 * so a data key sealed for one user's credential can only be opened for that same credential.
 */
export const BYOK_ENCRYPTION_CONTEXT_KEYS = ['userId', 'credentialId'] as const;

export function byokEncryptionContext(userId: string, credentialId: string): Record<(typeof BYOK_ENCRYPTION_CONTEXT_KEYS)[number], string> {
  return { userId, credentialId };
}
