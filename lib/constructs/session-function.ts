import { Aws, Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { DomainFunction, type SharedFunctionSettings } from './domain-function.js';
import { BYOK_ENCRYPTION_CONTEXT_KEYS } from '../../functions/platform/crypto/byok-context.js';

/**
 * Claude 3.5 Haiku: cheap and fast enough for tutoring turns. Whatever the model, it must be invokable on
 * demand (not only through an inference profile) in the deployment region, with model access enabled.
 */
export const DEFAULT_TUTOR_MODEL_ID = 'anthropic.claude-3-5-haiku-20241022-v1:0';


export interface SessionFunctionProps {
  shared: SharedFunctionSettings;
  /** The BYOK key; this function may only decrypt data keys with it. */
  byokKey: IKey;
  /**
   * Bedrock foundation model the operator pays for when a user has no BYOK credential (and for anonymous
   * sessions). `null`: no operator model, so only users with their own key get a tutor.
   * @default DEFAULT_TUTOR_MODEL_ID
   */
  tutorModelId?: string | null;
  /** Sessions expire this many days after their last activity. @default 30 */
  retentionDays?: number;
  /** One tutor turn (every provider call and tool call in it). @default 60 seconds */
  llmTimeout?: Duration;
  /** @default 5 minutes */
  timeout?: Duration;
  /** @default 1024 */
  memorySize?: number;
}

/**
 * The tutoring-session domain: sessions in the table (read/write), BYOK keys opened with kms:Decrypt
 * only, and the operator's default model on Bedrock, granted on that one model and nothing broader.
 */
export class SessionFunction extends DomainFunction {
  /** The Bedrock model this function may invoke, if the operator offers one. */
  readonly tutorModelId?: string;
  readonly timeout: Duration;

  constructor(scope: Construct, id: string, props: SessionFunctionProps) {
    const timeout = props.timeout ?? Duration.minutes(5);
    const llmTimeout = props.llmTimeout ?? Duration.seconds(60);
    const retentionDays = props.retentionDays ?? 30;
    const tutorModelId = props.tutorModelId === undefined ? DEFAULT_TUTOR_MODEL_ID : (props.tutorModelId ?? undefined);
    validate({ timeout, llmTimeout, retentionDays, tutorModelId });

    super(scope, id, {
      shared: props.shared,
      entry: 'functions/session/handler.ts',
      description: 'Tutor Nexus session domain: tutoring sessions and streamed tutor answers',
      tableAccess: 'readWrite',
      memorySize: props.memorySize,
      timeout,
      environment: {
        TN_KMS_KEY_ID: props.byokKey.keyArn,
        TN_SESSION_RETENTION_DAYS: String(retentionDays),
        TN_LLM_TIMEOUT_MS: String(llmTimeout.toMilliseconds()),
        // Bedrock authenticates with this function's role: no API key in the environment.
        ...(tutorModelId ? { TN_DEFAULT_LLM_PROVIDER: 'bedrock', TN_DEFAULT_LLM_MODEL: tutorModelId } : {}),
      },
    });
    this.timeout = timeout;
    this.tutorModelId = tutorModelId;

    // Opens stored BYOK credentials, never seals them (the user function does that). The conditions
    // pin the encryption context to exactly the keys envelopes are sealed with, so this role cannot
    // decrypt anything else the key might ever protect. Null=false requires each key to be present;
    // ForAllValues alone would also match a request without any context.
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [props.byokKey.keyArn],
        conditions: {
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...BYOK_ENCRYPTION_CONTEXT_KEYS] },
          Null: Object.fromEntries(BYOK_ENCRYPTION_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
        },
      }),
    );

    if (tutorModelId) {
      // Converse (InvokeModel) and ConverseStream (InvokeModelWithResponseStream) on this one model.
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
          resources: [`arn:${Aws.PARTITION}:bedrock:${Aws.REGION}::foundation-model/${tutorModelId}`],
        }),
      );
    }
  }
}

/** Settings the function would otherwise reject at its first cold start, rejected at synth instead. */
function validate(s: { timeout: Duration; llmTimeout: Duration; retentionDays: number; tutorModelId?: string }): void {
  if (!Number.isInteger(s.retentionDays) || s.retentionDays < 1) {
    throw new Error(`Session retention must be a whole number of days ≥ 1, got ${s.retentionDays}`);
  }
  // A turn also reads and writes the session around the model call; leave it a minute for that.
  if (s.llmTimeout.toMilliseconds() > 110_000) {
    throw new Error(`The LLM timeout (${s.llmTimeout.toSeconds()} s) must be at most 110 s: session tools have a 120 s deadline`);
  }
  if (s.llmTimeout.toMilliseconds() + 60_000 > s.timeout.toMilliseconds()) {
    throw new Error(`The LLM timeout (${s.llmTimeout.toSeconds()} s) must be at least 60 s below the function timeout (${s.timeout.toSeconds()} s)`);
  }
  if (s.tutorModelId === undefined) return;
  // Cross-region inference profiles (`us.anthropic…`, `global.…`) need inference-profile ARNs and the model
  // in several regions; the grant here covers a foundation model in this region only.
  if (!/^[a-z0-9-]+\.[A-Za-z0-9._:-]+$/.test(s.tutorModelId) || /^(us|us-gov|eu|apac|jp|au|ca|global)\./.test(s.tutorModelId)) {
    throw new Error(`tutorModelId must be a Bedrock foundation model id such as ${DEFAULT_TUTOR_MODEL_ID}, got "${s.tutorModelId}"`);
  }
}
