import { runCli } from '../local/cli.js';

process.exitCode = await runCli(process.argv.slice(2));
