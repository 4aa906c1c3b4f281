import type Provider from 'oidc-provider';
import type { ParameterizedContext } from 'koa';
import type { AddressLimiter } from '../platform/auth/attempt-limits.js';
import { USER_PERMISSIONS } from '../platform/auth/principal.js';
import { CLIENT_ADDRESS_HEADER } from './fetch-bridge.js';
import { consentPage, errorPage, PAGE_HEADERS, signInPage, tooManyAttemptsPage } from './pages.js';
import { issuerBasePath, REFRESH_TOKEN_TTL_SECONDS } from './provider.js';
import type { PendingUpstreamSignIn, UpstreamIdentityProvider } from './upstream-sign-in.js';

/** Who a secret typed on the sign-in page signs in as, and what that secret itself may do. */
interface VerifiedCredential {
  accountId: string;
  /** The credential's permissions: a grant made from it never holds more. */
  permissions: string[];
  /** When the credential expires (epoch seconds): a grant made from it never outlives it. */
  expiresAt?: number;
}

/** Checks the secret typed on the sign-in page; who it signs in as, or undefined. */
type TokenVerifier = (secret: string) => Promise<VerifiedCredential | undefined>;

/** How a user proves who they are: a token typed into our page (one machine), or an identity provider (AWS: Cognito). */
export type SignInMethod = { kind: 'token'; verify: TokenVerifier } | { kind: 'upstream'; provider: UpstreamIdentityProvider };

const UPSTREAM_COOKIE = 'tn_upstream';
const UPSTREAM_COOKIE_SECONDS = 10 * 60;
/** The credential just verified on the sign-in page, carried (signed) to the consent step that follows. */
const SIGNED_IN_COOKIE = 'tn_signed_in';
const SIGNED_IN_SECONDS = 10 * 60;

const FORM_LIMIT_BYTES = 16 * 1024;
const INTERACTION = /^\/oauth\/interaction\/([A-Za-z0-9_-]+)(?:\/(sign-in|consent))?$/;

/**
 * The sign-in and consent steps of an authorization (oidc-provider's "interactions"): a form with one
 * secret field, then a page naming the client, where it sends the code and the permissions it asks
 * for. The interaction cookie oidc-provider sets binds each form to the browser that started it.
 *
 * With the token form, every authorization signs in afresh (ADR 0027): the grant is made from the
 * credential typed for it, never holds a permission that credential lacks, and expires with it. A
 * sign-in that fails counts against the browser's network address; past the limit the form is refused
 * without checking the secret.
 */
export function mountInteractions(provider: Provider, args: { issuer: string; signIn: SignInMethod; signInFailures: AddressLimiter }): void {
  const basePath = issuerBasePath(args.issuer);
  const upstreamCallback = `${args.issuer}/oauth/callback`;
  const cookiePath = `${basePath}/oauth/interaction`;
  provider.use(async (ctx, next) => {
    if (ctx.path === '/oauth/callback' && args.signIn.kind === 'upstream') return finishUpstream(ctx, args.signIn.provider);
    const match = INTERACTION.exec(ctx.path);
    if (!match) return next();
    const [, uid, step] = match;
    ctx.set(PAGE_HEADERS);
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== uid) ctx.throw(400, 'interaction mismatch');
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    const action = (to: 'sign-in' | 'consent') => `${basePath}/oauth/interaction/${uid}/${to}`;

    if (ctx.method === 'GET' && !step && details.prompt.name === 'login' && args.signIn.kind === 'upstream') {
      const { url, pending } = await args.signIn.provider.begin(upstreamCallback);
      ctx.cookies.set(UPSTREAM_COOKIE, JSON.stringify({ uid, ...pending }), {
        signed: true,
        httpOnly: true,
        sameSite: 'lax',
        path: `${basePath}/oauth/callback`,
        maxAge: UPSTREAM_COOKIE_SECONDS * 1000,
        secure: ctx.secure,
      });
      ctx.redirect(url);
      return;
    }
    /** What the credential this browser just signed in with may do: the token form's, or (an identity provider's sign-in) all a user may. */
    const ceiling = (): VerifiedCredential | undefined => {
      const accountId = details.session?.accountId;
      if (!accountId || details.prompt.name === 'login') return undefined;
      if (args.signIn.kind === 'upstream') return { accountId, permissions: [...USER_PERMISSIONS] };
      const signedIn = readSignedIn(ctx);
      return signedIn?.accountId === accountId ? signedIn : undefined;
    };
    const showSignIn = (status: number, error?: string) => {
      ctx.status = status;
      ctx.type = 'html';
      ctx.body = signInPage({ action: action('sign-in'), clientName, error });
    };

    if (ctx.method === 'GET' && !step) {
      const credential = ceiling();
      if (!credential) return showSignIn(200);
      const { granted, withheld } = withinCeiling(requestedPermissions(details.prompt.details), credential);
      ctx.type = 'html';
      ctx.body = consentPage({
        action: action('consent'),
        clientName,
        clientId: String(details.params.client_id),
        redirectHost: hostOf(String(details.params.redirect_uri)),
        permissions: granted,
        withheld,
      });
      return;
    }
    if (ctx.method !== 'POST' || !step) ctx.throw(405);
    const form = await readForm(ctx);

    if (step === 'sign-in') {
      if (args.signIn.kind !== 'token') return ctx.throw(404);
      const address = ctx.get(CLIENT_ADDRESS_HEADER) || 'unknown';
      const blocked = args.signInFailures.blockedFor(address);
      if (blocked) return refuseAttempts(ctx, blocked);
      const credential = await args.signIn.verify(form.get('token') ?? '');
      if (!credential) {
        const wait = await args.signInFailures.count(address);
        if (wait) return refuseAttempts(ctx, wait);
        return showSignIn(401, 'That token is not valid for this server.');
      }
      ctx.cookies.set(SIGNED_IN_COOKIE, JSON.stringify({ ...credential, at: Date.now() }), {
        signed: true,
        httpOnly: true,
        sameSite: 'lax',
        path: cookiePath,
        maxAge: SIGNED_IN_SECONDS * 1000,
        secure: ctx.secure,
      });
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: credential.accountId, remember: false } }, { mergeWithLastSubmission: false });
      return;
    }

    if (form.get('decision') !== 'allow') {
      await provider.interactionFinished(ctx.req, ctx.res, { error: 'access_denied', error_description: 'The user denied access.' }, { mergeWithLastSubmission: false });
      return;
    }
    const credential = ceiling();
    // The sign-in this consent rests on is gone (expired, another browser): sign in again first.
    if (!credential) return showSignIn(400, 'Sign in again to continue.');
    ctx.cookies.set(SIGNED_IN_COOKIE, null, { path: cookiePath });
    const now = Math.floor(Date.now() / 1000);
    const lifetime = Math.min(REFRESH_TOKEN_TTL_SECONDS, credential.expiresAt === undefined ? Infinity : credential.expiresAt - now);
    if (lifetime <= 0) return showSignIn(400, 'That token has expired.');
    // BaseToken takes expiresIn (the grant's own lifetime); the type declarations leave it out.
    const grant = new provider.Grant({ accountId: credential.accountId, clientId: String(details.params.client_id), expiresIn: lifetime } as ConstructorParameters<Provider['Grant']>[0]);
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      const { granted, withheld } = withinCeiling(scopes, credential);
      if (granted.length) grant.addResourceScope(resource, granted.join(' '));
      // Recorded as refused, so the request is settled with less rather than asked again.
      if (withheld.length) grant.rejectResourceScope(resource, withheld.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });
}

/** The permissions asked for that the credential holds, and those it does not. */
function withinCeiling(requested: string[], credential: VerifiedCredential): { granted: string[]; withheld: string[] } {
  const allowed = new Set(credential.permissions);
  return { granted: requested.filter((p) => allowed.has(p)), withheld: requested.filter((p) => !allowed.has(p)) };
}

function readSignedIn(ctx: ParameterizedContext): VerifiedCredential | undefined {
  try {
    const value = JSON.parse(ctx.cookies.get(SIGNED_IN_COOKIE, { signed: true }) ?? '') as VerifiedCredential & { at: number };
    if (typeof value.accountId !== 'string' || !Array.isArray(value.permissions) || Date.now() - value.at > SIGNED_IN_SECONDS * 1000) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

function refuseAttempts(ctx: ParameterizedContext, retryAfter: number): void {
  ctx.status = 429;
  ctx.set('retry-after', String(retryAfter));
  ctx.type = 'html';
  ctx.body = tooManyAttemptsPage(retryAfter);
}

/**
 * The identity provider sent the browser back: verify its answer against what the signed cookie
 * remembers, then record the login on the interaction and resume the authorization.
 */
async function finishUpstream(ctx: ParameterizedContext, upstream: UpstreamIdentityProvider): Promise<void> {
  ctx.set(PAGE_HEADERS);
  const provider = ctx.app as unknown as Provider;
  const cookie = ctx.cookies.get(UPSTREAM_COOKIE, { signed: true });
  ctx.cookies.set(UPSTREAM_COOKIE, null, { path: ctx.path });
  let pending: PendingUpstreamSignIn & { uid: string };
  try {
    pending = JSON.parse(cookie ?? '') as PendingUpstreamSignIn & { uid: string };
  } catch {
    ctx.status = 400;
    ctx.type = 'html';
    ctx.body = errorPage('sign_in_expired', 'The sign-in took too long or started in another browser. Start again from your app.');
    return;
  }
  const interaction = await provider.Interaction.find(pending.uid);
  let accountId: string;
  try {
    if (!interaction) throw new Error('interaction expired');
    accountId = await upstream.finish(new URL(ctx.href), pending);
  } catch {
    ctx.status = 400;
    ctx.type = 'html';
    ctx.body = errorPage('sign_in_failed', 'The identity provider\'s answer could not be verified. Start again from your app.');
    return;
  }
  interaction!.result = { login: { accountId, remember: false } };
  await interaction!.save(interaction!.exp - Math.floor(Date.now() / 1000));
  ctx.status = 303;
  ctx.redirect(interaction!.returnTo);
}

function requestedPermissions(details: Record<string, unknown>): string[] {
  const missing = (details.missingResourceScopes ?? {}) as Record<string, string[]>;
  return [...new Set(Object.values(missing).flat())].sort();
}

function hostOf(uri: string): string {
  const url = URL.parse(uri);
  return url ? `${url.protocol}//${url.host}` : uri;
}

async function readForm(ctx: ParameterizedContext): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) ctx.throw(413, 'form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
