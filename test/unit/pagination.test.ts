import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../functions/platform/cursor-codec.js';
import { mapError } from '../../functions/mcp/tools/errors.js';

const codec = new CursorCodec(Buffer.from('test-secret-0123456789abcdef'));
const scope = { tool: 'tn_user_byok_list', userId: 'alice', query: { institution: 'sfu' } };

function expectBadCursor(run: () => unknown) {
  try {
    run();
    expect.fail('expected BAD_REQUEST');
  } catch (error) {
    // What the caller sees once the tool edge maps the domain error.
    const { response, status } = mapError(error, 'req-1');
    expect(response.code).toBe('BAD_REQUEST');
    expect(status).toBe(400);
    expect(response.details?.fields?.[0]?.field).toBe('cursor');
  }
}

describe('CursorCodec', () => {
  it('round-trips a position within its scope', () => {
    const cursor = codec.encode(scope, { PK: 'USER#alice', SK: 'BYOK#01' });
    expect(codec.decode(scope, cursor)).toEqual({ PK: 'USER#alice', SK: 'BYOK#01' });
    expect(cursor).not.toContain('USER#alice');
  });

  it('rejects a modified body, a modified signature, and garbage', () => {
    const cursor = codec.encode(scope, { offset: 20 });
    const [body, mac] = cursor.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { offset: 0 } })).toString('base64url');
    expectBadCursor(() => codec.decode(scope, `${forgedBody}.${mac}`));
    expectBadCursor(() => codec.decode(scope, `${body}.${mac.slice(0, -2)}xx`));
    expectBadCursor(() => codec.decode(scope, 'garbage'));
    expectBadCursor(() => codec.decode(scope, `${cursor}.extra`));
  });

  it('rejects a cursor minted for another user, tool or query', () => {
    const cursor = codec.encode(scope, { offset: 20 });
    expectBadCursor(() => codec.decode({ ...scope, userId: 'bob' }, cursor));
    expectBadCursor(() => codec.decode({ ...scope, tool: 'tn_course_search' }, cursor));
    expectBadCursor(() => codec.decode({ ...scope, query: { institution: 'ubc' } }, cursor));
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec(Buffer.from('another-secret'));
    expectBadCursor(() => codec.decode(scope, other.encode(scope, { offset: 1 })));
  });
});
