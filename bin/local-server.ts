import { progressReporter } from '../local/sample-catalog.js';
import { connectionBanner, startLocalServer } from '../local/server.js';

const server = await startLocalServer({ sampleProgress: progressReporter() }).catch((error: unknown) => {
  console.error(`Tutor Nexus could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(connectionBanner(server));

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping Tutor Nexus and DynamoDB Local…');
    server.stop().finally(() => process.exit(0));
  });
}
