import path from 'node:path';

export const SERVICE_NAME = 'tutor-nexus';
export const SERVICE_VERSION = '0.1.0';

export interface AppConfig {
  /** `local` trusts loopback and private addresses; `aws` does not. */
  runtime: 'local' | 'aws';
  region: string;
  tableName: string;
  dynamoDbEndpoint?: string;
  dataDir: string;
  toolPrefix: string;
  promptsPerDay: number;
  kmsKeyId?: string;
  cursorSecret?: string;
  jwt?: { issuer: string; audience: string; jwksUrl?: string };
  /** Public base URL of the API, used in the protected-resource metadata. */
  publicBaseUrl?: string;
  /** Prefix the authorization server puts on our scopes (Cognito: `<resource server>/`). */
  oauthScopePrefix: string;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): AppConfig {
  const runtime = env.TN_RUNTIME === 'aws' || (env.AWS_LAMBDA_FUNCTION_NAME && env.TN_RUNTIME !== 'local') ? 'aws' : 'local';
  const promptsPerDay = Number(env.TN_PROMPTS_PER_DAY ?? 100);
  if (!Number.isInteger(promptsPerDay) || promptsPerDay < 0) {
    throw new Error(`TN_PROMPTS_PER_DAY must be a non-negative integer, got "${env.TN_PROMPTS_PER_DAY}"`);
  }
  const jwtIssuer = env.TN_JWT_ISSUER;
  return {
    runtime,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-west-2',
    tableName: env.TN_TABLE_NAME ?? 'tutor-nexus',
    dynamoDbEndpoint: env.TN_DYNAMODB_ENDPOINT || undefined,
    dataDir: path.resolve(env.TN_DATA_DIR ?? '.tutor-nexus'),
    toolPrefix: env.TN_TOOL_PREFIX ?? 'tn_',
    promptsPerDay,
    kmsKeyId: env.TN_KMS_KEY_ID || undefined,
    cursorSecret: env.TN_CURSOR_SECRET || undefined,
    jwt: jwtIssuer
      ? { issuer: jwtIssuer, audience: env.TN_JWT_AUDIENCE ?? '', jwksUrl: env.TN_JWT_JWKS_URL || undefined }
      : undefined,
    publicBaseUrl: env.TN_PUBLIC_BASE_URL || undefined,
    oauthScopePrefix: env.TN_OAUTH_SCOPE_PREFIX ?? '',
  };
}
