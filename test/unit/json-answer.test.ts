import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { asciiJson, PreparedAnswers } from '../../functions/mcp/http/json-answer.js';

// Every kind of character JSON treats specially, and non-ASCII from one byte to a surrogate pair.
const data = {
  label: 'LANG ANTH 1120 → SFU @ Jan/08',
  quoted: 'a "quoted" \\ back\\slash and a tab\tand a newline\n',
  control: '\u0000\u001f',
  accents: 'Université de Montréal — 5 ½',
  emoji: 'ok 👍',
  lone: 'half \ud83d of a pair',
  nested: [{ ref: 'langara:CPSC 1150', credits: null, n: 3.5 }],
};

function answer(): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(data) },
      { type: 'text', text: 'Next: say “done”.' },
      { type: 'resource_link', uri: 'course://langara/CPSC%201150', name: 'langara:CPSC 1150', mimeType: 'text/markdown' },
    ],
    structuredContent: data,
    _meta: { agentHints: { reasoning: 'Chose ANTH 1120 → SFU SA 101' } },
  };
}

/** As the SDK passes a result on: a validated copy, its members in the schema's order. */
function sdkCopy(result: CallToolResult): CallToolResult {
  return { _meta: { ...result._meta }, content: result.content.map((block) => ({ ...block })), structuredContent: { ...(result.structuredContent as Record<string, unknown>) } };
}

describe('answers written from the JSON they hold (json-answer.ts)', () => {
  it('escapes only non-ASCII, so the text parses to the same value', () => {
    const json = JSON.stringify({ ...data, more: answer()._meta });
    const ascii = asciiJson(json);
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(JSON.parse(ascii)).toEqual(JSON.parse(json));
    expect(asciiJson('{"plain":"ascii"}')).toBe('{"plain":"ascii"}');
  });

  it('writes the same bytes as serializing the whole message, as ASCII', () => {
    const answers = new PreparedAnswers();
    answers.remember(7, answer());
    const message = { result: sdkCopy(answer()), jsonrpc: '2.0', id: 7 } as JSONRPCMessage;
    const bytes = answers.encode(message)!;
    expect(Buffer.from(bytes).toString('latin1')).toBe(asciiJson(JSON.stringify(message)));
    const parsed = JSON.parse(new TextDecoder().decode(bytes));
    expect(parsed).toEqual(JSON.parse(JSON.stringify(message)));
    expect(parsed.result.content[0].text).toBe(JSON.stringify(data));
  });

  it('leaves to the SDK any message that is not the answer remembered, as remembered', () => {
    const answers = new PreparedAnswers();
    answers.remember(7, answer());
    const as = (id: number, result: CallToolResult) => ({ result, jsonrpc: '2.0', id }) as JSONRPCMessage;
    expect(answers.encode(as(8, sdkCopy(answer())))).toBeUndefined();
    const otherText = sdkCopy(answer());
    otherText.content[0] = { type: 'text', text: '{}' };
    expect(answers.encode(as(7, otherText))).toBeUndefined();
    const otherMember = sdkCopy(answer());
    otherMember.structuredContent = { ...data, label: 'changed' };
    expect(answers.encode(as(7, otherMember))).toBeUndefined();
    const fewerMembers = sdkCopy(answer());
    const { emoji: _dropped, ...rest } = data;
    fewerMembers.structuredContent = rest;
    expect(answers.encode(as(7, fewerMembers))).toBeUndefined();
    expect(answers.encode({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'x' } } as JSONRPCMessage)).toBeUndefined();
  });
});
