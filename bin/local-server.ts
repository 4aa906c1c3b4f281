import { progressReporter } from '../local/sample-catalog.js';
import { connectionBanner, startLocalServer, type LocalServer } from '../local/server.js';

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

running.server = await startLocalServer({ sampleProgress: progressReporter() }).catch((error: unknown) => {
  console.error(`Tutor Nexus could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(connectionBanner(running.server));
