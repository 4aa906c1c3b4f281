import type { Store } from '../../functions/shared/store/dynamo-client.js';

/** The DynamoDB commands a store sends while `fn` runs, in order (e.g. 'QueryCommand'). */
export async function commandsDuring<T>(store: Store, fn: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const sent: string[] = [];
  const name = `count-commands-${Math.random()}`;
  store.doc.middlewareStack.add((next, context) => (args) => (sent.push(context.commandName ?? ''), next(args)), { step: 'initialize', name });
  try {
    return { result: await fn(), sent };
  } finally {
    store.doc.middlewareStack.remove(name);
  }
}
