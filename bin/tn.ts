import { runStudentCli, STUDENT_COMMANDS, STUDENT_USAGE, unknownCommand } from '../cli/index.js';

const argv = process.argv.slice(2);
const operator = argv[0] === 'token' || argv[0] === 'plan';
if (operator) {
  // The operator commands write to the store directly; loaded only when asked for.
  const { runCli } = await import('../local/cli.js');
  process.exitCode = await runCli(argv);
} else if (argv[0] && Object.hasOwn(STUDENT_COMMANDS, argv[0])) {
  process.exitCode = await runStudentCli(argv);
} else if (argv[0] === undefined || ['help', '--help', '-h'].includes(argv[0])) {
  // Asked for, the help is the answer (stdout, exit 0); tn alone is a usage error (stderr, exit 2).
  const { OPERATOR_USAGE } = await import('../local/cli.js');
  const help = `${STUDENT_USAGE}\n\nOperator ${OPERATOR_USAGE.replace(/^Usage/, 'usage')}\n`;
  if (argv[0] === undefined) process.stderr.write(help);
  else process.stdout.write(help);
  process.exitCode = argv[0] === undefined ? 2 : 0;
} else {
  process.stderr.write(unknownCommand(argv[0]));
  process.exitCode = 2;
}
