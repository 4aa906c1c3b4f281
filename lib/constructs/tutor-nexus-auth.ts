import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  ResourceServerScope,
  StandardThreatProtectionMode,
  CfnUserPoolClient,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { USER_PERMISSIONS } from '../../functions/platform/auth/principal.js';

/** Where the MCP Inspector receives the authorization code. */
export const MCP_INSPECTOR_CALLBACK = 'http://localhost:6274/oauth/callback';
/** Scopes are requested as `tutor-nexus/<permission>`; the function strips the `tutor-nexus/` prefix. */
export const RESOURCE_SERVER_ID = 'tutor-nexus';

export interface TutorNexusAuthProps {
  /** Hosted sign-in domain prefix, unique per region. */
  domainPrefix: string;
  /** Extra OAuth callback URLs besides the MCP Inspector's. */
  callbackUrls?: string[];
  /** Cognito Plus tier with threat protection enforced (billed per MAU). @default false */
  plusTier?: boolean;
}
/**
 * Cognito as the authorization server for MCP clients: a user pool with self sign-up by email,
 * a public client (authorization code + PKCE, no secret) and a resource server whose scopes are
 * the permission names the tools check (`byok:read`, …). ':' is allowed in Cognito scope names
 * (pattern [\x21\x23-\x2E\x30-\x5B\x5D-\x7E]+), so tokens carry `tutor-nexus/byok:read`.
 */
export class TutorNexusAuth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** The `iss` of the pool's tokens. */
  readonly issuer: string;
  private readonly callbackUrls: string[];

  constructor(scope: Construct, id: string, props: TutorNexusAuthProps) {
    super(scope, id);
    const plus = props.plusTier ?? false;

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: plus ? FeaturePlan.PLUS : FeaturePlan.ESSENTIALS,
      standardThreatProtectionMode: plus ? StandardThreatProtectionMode.FULL_FUNCTION : undefined,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;

    const scopes = USER_PERMISSIONS.map(
      (permission) => new ResourceServerScope({ scopeName: permission, scopeDescription: `Tutor Nexus permission ${permission}` }),
    );
    const resourceServer = this.userPool.addResourceServer('ResourceServer', {
      identifier: RESOURCE_SERVER_ID,
      userPoolResourceServerName: 'Tutor Nexus MCP',
      scopes,
    });

    this.client = this.userPool.addClient('McpClient', {
      userPoolClientName: 'tutor-nexus-mcp-public',
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [
          OAuthScope.OPENID,
          OAuthScope.EMAIL,
          OAuthScope.PROFILE,
          ...scopes.map((scope) => OAuthScope.resourceServer(resourceServer, scope)),
        ],
        callbackUrls: [MCP_INSPECTOR_CALLBACK, ...(props.callbackUrls ?? [])],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.callbackUrls = [MCP_INSPECTOR_CALLBACK, ...(props.callbackUrls ?? [])];
    this.domain = this.userPool.addDomain('Domain', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    const validations = Validations.of(this.userPool);
    this.acknowledge(validations, plus);
  }

  /**
   * Adds a redirect URI after construction: the authorization server's callback names the API, which
   * is built after the pool its functions depend on.
   */
  allowCallback(url: string): void {
    this.callbackUrls.push(url);
    (this.client.node.defaultChild as CfnUserPoolClient).callbackUrLs = this.callbackUrls;
  }

  private acknowledge(validations: ReturnType<typeof Validations.of>, plus: boolean): void {
    validations.acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional (TOTP) rather than required: students self-register from CLIs and agents, and forcing ' +
        'MFA at sign-up blocks the MCP authorization flow for many clients. Users holding BYOK keys can enable TOTP.',
    });
    if (!plus) {
      validations.acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'Essentials tier by default: threat protection (adaptive authentication, compromised-credential checks) ' +
          'needs the Plus tier, billed per monthly active user. Deploy with -c cognitoPlusTier=true to enable it ' +
          'in ENFORCED mode.',
      });
    }
  }
}
