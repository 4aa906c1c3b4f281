import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './domain-error.js';

/** Where a cursor may be used: the tool, the caller, and the query it paged through. */
export interface CursorScope {
  tool: string;
  userId?: string;
  query?: unknown;
}

/**
 * Opaque, tamper-evident cursors: an HMAC over the position and its scope. A modified cursor, or one
 * minted for another tool, user or query, fails verification and is BAD_REQUEST.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(scope: CursorScope, position: unknown): string {
    const body = Buffer.from(JSON.stringify({ s: scopeHash(scope), p: position })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode<P>(scope: CursorScope, cursor: string): P {
    const [body, mac, extra] = cursor.split('.');
    if (!body || !mac || extra !== undefined || !this.verify(body, mac)) throw invalidCursor();
    let parsed: { s?: string; p?: P };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (parsed.s !== scopeHash(scope) || parsed.p === undefined) throw invalidCursor();
    return parsed.p;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }

  private verify(body: string, mac: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function scopeHash(scope: CursorScope): string {
  return createHash('sha256')
    .update(JSON.stringify([scope.tool, scope.userId ?? '', scope.query ?? null]))
    .digest('base64url')
    .slice(0, 16);
}

export function invalidCursor(): DomainError {
  return new DomainError('invalid', 'The cursor is invalid, was modified, or belongs to another query. Start again without a cursor.', {
    fields: [{ field: 'cursor', message: 'invalid or tampered cursor' }],
  });
}
