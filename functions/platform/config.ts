import path from 'node:path';

export const SERVICE_NAME = 'tutor-nexus';
export const SERVICE_VERSION = '0.1.0';

export interface AppConfig {
  /** `local` trusts loopback and private addresses; `aws` does not. */
  runtime: 'local' | 'aws';
  /**
   * Where the servers may connect on a caller's say-so (model base URLs, client ID metadata documents):
   * `public` (https, public addresses only; always in AWS, TN_OUTBOUND=public locally) or `any`.
   */
  outboundPolicy: 'public' | 'any';
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
  /**
   * Our own authorization server's issuer (TN_OAUTH_ISSUER; locally the server's own URL): the protected-resource
   * metadata names it and its access tokens are accepted. Unset: the JWT issuer (Cognito) is named instead.
   */
  oauthIssuer?: string;
  /** Extra hostnames a browser's Origin (and locally the Host) may name (TN_ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** Redirect URI patterns the authorization server allows besides the built-in connectors (TN_OAUTH_REDIRECT_URIS). */
  oauthRedirectUris: string[];
  /** The identity provider sign-in is delegated to (TN_OAUTH_UPSTREAM_*; in AWS the Cognito user pool); unset: the token form. */
  oauthUpstream?: { issuer: string; clientId: string; clientSecret?: string };
  /** Prefix the authorization server puts on our scopes (Cognito: `<resource server>/`). */
  oauthScopePrefix: string;
  tutor: TutorConfig;
  /**
   * Only this process serves from the table: the local server on the DynamoDB Local it started and
   * locked (set by local/server.ts, never from the environment). A lease no answer in this process holds
   * is then a dead process's, and a retry takes it at once instead of waiting for it to lapse.
   */
  soleServer?: boolean;
}

const DEFAULT_LLM_PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'bedrock'] as const;
export type DefaultLlmProvider = (typeof DEFAULT_LLM_PROVIDERS)[number];

/** The operator's own model, used when a user has no BYOK credential (and for anonymous sessions). */
interface DefaultLlm {
  provider: DefaultLlmProvider;
  model: string;
  /** Not used for bedrock (IAM). Never logged or returned. */
  apiKey?: string;
  baseUrl?: string;
}

export interface TutorConfig {
  defaultLlm?: DefaultLlm;
  /** Where BYOK calls for `openai` / `anthropic` go; the providers' own APIs unless a proxy is configured. */
  openaiBaseUrl?: string;
  anthropicBaseUrl?: string;
  /** Sessions expire this long after their last activity. */
  retentionDays: number;
  /** A provider call that has not finished in this time fails with SERVICE_UNAVAILABLE. */
  llmTimeoutMs: number;
  /** Read-only tool calls the tutor may make in one turn. */
  maxToolCalls: number;
  /** Prompts per UTC day shared by every anonymous session (the operator pays for them). */
  anonymousPromptsPerDay: number;
}

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function loadDefaultLlm(env: Env): DefaultLlm | undefined {
  const provider = env.TN_DEFAULT_LLM_PROVIDER;
  if (!provider) return undefined;
  if (!(DEFAULT_LLM_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Error(`TN_DEFAULT_LLM_PROVIDER must be one of ${DEFAULT_LLM_PROVIDERS.join(', ')}, got "${provider}"`);
  }
  const model = env.TN_DEFAULT_LLM_MODEL;
  if (!model) throw new Error('TN_DEFAULT_LLM_MODEL is required when TN_DEFAULT_LLM_PROVIDER is set');
  if (provider !== 'bedrock' && !env.TN_DEFAULT_LLM_API_KEY) throw new Error(`TN_DEFAULT_LLM_API_KEY is required for provider ${provider}`);
  if (provider === 'openai-compatible' && !env.TN_DEFAULT_LLM_BASE_URL) throw new Error('TN_DEFAULT_LLM_BASE_URL is required for openai-compatible');
  return {
    provider: provider as DefaultLlmProvider,
    model,
    apiKey: env.TN_DEFAULT_LLM_API_KEY || undefined,
    baseUrl: env.TN_DEFAULT_LLM_BASE_URL || undefined,
  };
}

/** Below the session tools' 120 s deadline, so a slow provider fails the turn cleanly (quota released) first. */
function llmTimeout(env: Env): number {
  const value = positiveInteger(env, 'TN_LLM_TIMEOUT_MS', 60_000, 100);
  if (value > 110_000) throw new Error(`TN_LLM_TIMEOUT_MS must be at most 110000 (the tool deadline is 120 s), got ${value}`);
  return value;
}

function loadTutorConfig(env: Env): TutorConfig {
  return {
    defaultLlm: loadDefaultLlm(env),
    openaiBaseUrl: env.TN_OPENAI_BASE_URL || undefined,
    anthropicBaseUrl: env.TN_ANTHROPIC_BASE_URL || undefined,
    retentionDays: positiveInteger(env, 'TN_SESSION_RETENTION_DAYS', 30),
    llmTimeoutMs: llmTimeout(env),
    maxToolCalls: positiveInteger(env, 'TN_TUTOR_MAX_TOOL_CALLS', 4, 0),
    anonymousPromptsPerDay: positiveInteger(env, 'TN_ANONYMOUS_PROMPTS_PER_DAY', 200, 0),
  };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const runtime = env.TN_RUNTIME === 'aws' || (env.AWS_LAMBDA_FUNCTION_NAME && env.TN_RUNTIME !== 'local') ? 'aws' : 'local';
  const promptsPerDay = Number(env.TN_PROMPTS_PER_DAY ?? 100);
  if (!Number.isInteger(promptsPerDay) || promptsPerDay < 0) {
    throw new Error(`TN_PROMPTS_PER_DAY must be a non-negative integer, got "${env.TN_PROMPTS_PER_DAY}"`);
  }
  const jwtIssuer = env.TN_JWT_ISSUER;
  const outbound = env.TN_OUTBOUND ?? 'local';
  if (outbound !== 'local' && outbound !== 'public') throw new Error(`TN_OUTBOUND must be local or public, got "${outbound}"`);
  return {
    runtime,
    outboundPolicy: runtime === 'aws' || outbound === 'public' ? 'public' : 'any',
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
    oauthIssuer: env.TN_OAUTH_ISSUER?.replace(/\/$/, '') || undefined,
    oauthUpstream: env.TN_OAUTH_UPSTREAM_ISSUER
      ? {
          issuer: env.TN_OAUTH_UPSTREAM_ISSUER,
          clientId: required(env, 'TN_OAUTH_UPSTREAM_CLIENT_ID', 'TN_OAUTH_UPSTREAM_ISSUER'),
          clientSecret: env.TN_OAUTH_UPSTREAM_CLIENT_SECRET || undefined,
        }
      : undefined,
    allowedHosts: list(env.TN_ALLOWED_HOSTS),
    oauthRedirectUris: list(env.TN_OAUTH_REDIRECT_URIS),
    oauthScopePrefix: env.TN_OAUTH_SCOPE_PREFIX ?? '',
    tutor: loadTutorConfig(env),
  };
}

function required(env: Env, name: string, because: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required when ${because} is set`);
  return value;
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}
