import { afterAll, expect, vi } from 'vitest';
import { everyStoreRecorder } from './support/store/command-recorder.js';

/**
 * Every store a test file makes (the in-process local server's included) records the commands it
 * sends; after the file, each must be covered by an access pattern some store module declares
 * (functions/all-access-patterns.ts). Table management is not recorded, nor what a test sends inside
 * `unrecorded(…)` to arrange or inspect items itself. Commands of child processes (the CLI, bundled
 * Lambdas) are not seen here; the same code runs in process elsewhere in the suite.
 *
 * The recorder is attached by mocking createStore in test files only: production code carries no hook.
 */
vi.mock('../functions/platform/store/dynamo-client.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../functions/platform/store/dynamo-client.js')>();
  const { everyStoreRecorder: recorderOfThisFile } = await import('./support/store/command-recorder.js');
  return {
    ...original,
    createStore: (...args: Parameters<typeof original.createStore>) => {
      const store = original.createStore(...args);
      recorderOfThisFile().attach(store.client);
      return store;
    },
  };
});

const recorder = everyStoreRecorder();

afterAll(async () => {
  const commands = recorder.commands();
  if (!commands.length) return;
  // Loaded only when there is something to check: most unit test files send nothing.
  const [{ ALL_ACCESS_PATTERNS }, { describeCommand, uncoveredCommands }] = await Promise.all([
    import('../functions/all-access-patterns.js'),
    import('./support/store/access-pattern-matcher.js'),
  ]);
  const undeclared = uncoveredCommands(ALL_ACCESS_PATTERNS, commands).map(describeCommand);
  expect(undeclared, 'DynamoDB commands no store module declares (add an access pattern beside the code that sends them)').toEqual([]);
});
