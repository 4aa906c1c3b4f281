import { runStudentCli, STUDENT_COMMANDS, STUDENT_USAGE } from '../cli/index.js';

const argv = process.argv.slice(2);
const operator = argv[0] === 'token' || argv[0] === 'plan';
if (operator) {
  // The operator commands write to the store directly; loaded only when asked for.
  const { runCli } = await import('../local/cli.js');
  process.exitCode = await runCli(argv);
} else if (argv[0] && argv[0] in STUDENT_COMMANDS) {
  process.exitCode = await runStudentCli(argv);
} else {
  const { OPERATOR_USAGE } = await import('../local/cli.js');
  console.error(`${STUDENT_USAGE}\n\nOperator ${OPERATOR_USAGE.replace(/^Usage/, 'usage')}`);
  process.exitCode = argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h' ? 0 : 2;
}
