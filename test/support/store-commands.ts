import type { Store } from '../../functions/platform/store/dynamo-client.js';

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

/** Every table write a store sends while `fn` runs: its command and the keys (`PK|SK`) it writes. */
export async function writesDuring<T>(store: Store, fn: () => Promise<T>): Promise<{ result: T; writes: { command: string; keys: string[] }[] }> {
  const writes: { command: string; keys: string[] }[] = [];
  const name = `writes-${Math.random()}`;
  store.doc.middlewareStack.add(
    (next, context) => (args) => {
      const command = String(context.commandName);
      const input = args.input as { Item?: Record<string, unknown>; Key?: Record<string, unknown>; RequestItems?: Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]> };
      if (/Put|Update|Delete|BatchWrite|TransactWrite/.test(command)) {
        const keys = input.Item ? [`${input.Item.PK}|${input.Item.SK}`] : input.Key ? [`${input.Key.PK}|${input.Key.SK}`] : Object.values(input.RequestItems ?? {}).flat().map((r) => `${r.PutRequest?.Item.PK}|${r.PutRequest?.Item.SK}`);
        writes.push({ command, keys });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await fn(), writes };
  } finally {
    store.doc.middlewareStack.remove(name);
  }
}
