// The local server process (`npm start` runs it from a bundle, see bin/local-server.mjs): the server, its
// banner, and a stop that takes DynamoDB Local with it. Only light modules are imported up front.
import { loadConfig } from '../functions/platform/config.js';
import { startOnExistingDatabase } from './dynamodb-local.js';
import type { LocalServer } from './server.js';

const running: { server?: LocalServer } = {};
let stopping = false;
// Listening before the start: a signal during a first start's load (a minute) must still stop DynamoDB
// Local and remove the staged copy, which the process's exit hooks do; a signal's default action skips them.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping Tutor Nexus and DynamoDB Local…');
    if (!running.server) process.exit(0);
    running.server.stop().finally(() => process.exit(0));
  });
}

try {
  const config = loadConfig({ ...process.env, TN_RUNTIME: 'local' });
  // A restart: DynamoDB Local starts on the existing database while the server's modules load, which
  // take about as long. A first start fills the data directory before any emulator opens it.
  const dynamoDbLocal = config.dynamoDbEndpoint ? undefined : startOnExistingDatabase(config.dataDir);
  dynamoDbLocal?.catch(() => undefined); // reported where the server awaits it
  const [{ startLocalServer, connectionBanner }, { progressReporter }] = await Promise.all([import('./server.js'), import('./sample-catalog.js')]);
  running.server = await startLocalServer({
    sampleProgress: progressReporter(),
    dynamoDbLocal,
    notice: (message) => console.log(`
${message}
`),
    // The supervisor could not keep DynamoDB Local running: stop cleanly, with a status a process manager sees.
    onEmulatorLost: (reason) => {
      if (stopping) return;
      stopping = true;
      console.error(`
Tutor Nexus is stopping: ${reason}`);
      void (running.server?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
    },
  });
  console.log(connectionBanner(running.server));
} catch (error) {
  console.error(`Tutor Nexus could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
