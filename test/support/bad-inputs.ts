/** Malformed inputs every tool must refuse with a named-field BAD_REQUEST, never a 500 or a protocol failure. */
export const BAD_INPUTS: [string, unknown][] = [
  ['an array instead of an object', [1, 2, 3]],
  ['a string instead of an object', 'hello'],
  ['an unknown field of the wrong type', { limit: 'many', cursor: 42, provider: 7, tutoringStyle: ['x'], domain: 5, __proto__x: {} }],
  ['a huge string', { apiKey: 'x'.repeat(100_000), tag: 'y'.repeat(10_000), language: 'z'.repeat(5000) }],
  ['fields of the wrong type', { limit: -5, cursor: 12, provider: 'nope', includeSchemas: 'yes', credentialId: 'x' }],
];

/** The ones an MCP client can send at all: tools/call arguments are an object. */
export const BAD_ARGUMENT_OBJECTS = BAD_INPUTS.filter((entry): entry is [string, Record<string, unknown>] => {
  const input = entry[1];
  return typeof input === 'object' && input !== null && !Array.isArray(input);
});
