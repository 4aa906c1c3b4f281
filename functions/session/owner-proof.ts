import type { CursorCodec } from '../platform/cursor-codec.js';

/**
 * A snapshot's proof that the user who exported it owned the session (an HMAC by this server over the
 * user and the session id, made with the cursor key): with it, that user's import restores the session
 * under its own id even after it expired here. Without it, an import never takes an id it names.
 */
const scope = (ownerId: string, sessionId: string) => ({ tool: 'session-owner-proof', userId: ownerId, query: sessionId });

export function ownerProofFor(cursors: CursorCodec, ownerId: string, sessionId: string): string {
  return cursors.encode(scope(ownerId, sessionId), sessionId);
}

export function provesOwner(cursors: CursorCodec, proof: string | undefined, ownerId: string, sessionId: string): boolean {
  if (!proof) return false;
  try {
    return cursors.decode<string>(scope(ownerId, sessionId), proof) === sessionId;
  } catch {
    return false;
  }
}
