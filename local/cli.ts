import { parseArgs } from 'node:util';
import { createPersonalAccessToken } from '../functions/platform/auth/personal-access-tokens.js';
import { USER_PERMISSIONS } from '../functions/platform/auth/principal.js';
import { PLANS, PlanSchema, setPlan } from '../functions/user/plans.js';
import { withStore } from './store-session.js';

export const OPERATOR_USAGE = `Usage:
  tn token create --user <userId> [--scopes byok:read,preferences:read] [--days <n>] [--label <text>]
  tn plan set --user <userId> --plan <${PLANS.join('|')}> [--renews <YYYY-MM-DD>]

Writes to TN_DYNAMODB_ENDPOINT when set; against AWS with TN_RUNTIME=aws and TN_TABLE_NAME;
otherwise on TN_DATA_DIR's DynamoDB Local: the running server's (\`npm start\`), or one started for the command.`;

const OPTIONS = {
  user: { type: 'string' },
  scopes: { type: 'string' },
  days: { type: 'string' },
  label: { type: 'string' },
  plan: { type: 'string' },
  renews: { type: 'string' },
} as const;
type OperatorOptions = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [group, action, ...rest] = argv;
  let values: OperatorOptions;
  try {
    values = parseArgs({ args: rest, options: OPTIONS, strict: true }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${OPERATOR_USAGE}`);
    return 2;
  }
  if (!values.user || !['token create', 'plan set'].includes(`${group} ${action}`)) {
    console.error(OPERATOR_USAGE);
    return 2;
  }
  try {
    return await operate(group!, values, env);
  } catch (error) {
    // Said as a sentence (the data directory in use, the table unreachable), never as a stack.
    console.error(`tn ${group} ${action}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function operate(group: string, values: OperatorOptions, env: Record<string, string | undefined>): Promise<number> {
  return withStore(env, async (store) => {
    if (group === 'token') {
      const permissions = values.scopes ? values.scopes.split(',').map((s) => s.trim()) : [...USER_PERMISSIONS];
      const created = await createPersonalAccessToken(store, {
        userId: values.user!,
        permissions,
        label: values.label,
        expiresInDays: values.days ? Number(values.days) : undefined,
      });
      console.log(`Personal access token for ${created.userId} (shown once; only its hash is stored):\n  ${created.token}`);
      console.log(`Permissions: ${created.permissions.join(', ')}${created.expiresAt ? `\nExpires: ${created.expiresAt}` : ''}`);
      return 0;
    }
    const plan = PlanSchema.safeParse(values.plan);
    if (!plan.success) {
      console.error(`--plan must be one of ${PLANS.join(', ')}`);
      return 2;
    }
    const record = await setPlan(store, {
      userId: values.user!,
      plan: plan.data,
      now: new Date(),
      renewsAt: values.renews ? new Date(values.renews) : undefined,
    });
    console.log(`${values.user} is now on the ${record.plan} plan${record.renewsAt ? `, renewing ${record.renewsAt}` : ''}.`);
    return 0;
  });
}
