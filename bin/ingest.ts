import { runIngestCli } from '../local/ingest-cli.js';

process.exitCode = await runIngestCli(process.argv.slice(2));
