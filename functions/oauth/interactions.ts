import type Provider from 'oidc-provider';
import type { ParameterizedContext } from 'koa';
import { consentPage, errorPage, PAGE_HEADERS, signInPage } from './pages.js';
import { issuerBasePath } from './provider.js';
import type { PendingUpstreamSignIn, UpstreamIdentityProvider } from './upstream-sign-in.js';

/** Checks the secret typed on the sign-in page; the user id it belongs to, or undefined. */
export type TokenVerifier = (secret: string) => Promise<string | undefined>;

/** How a user proves who they are: a token typed into our page (one machine), or an identity provider (AWS: Cognito). */
export type SignInMethod = { kind: 'token'; verify: TokenVerifier } | { kind: 'upstream'; provider: UpstreamIdentityProvider };

const UPSTREAM_COOKIE = 'tn_upstream';
const UPSTREAM_COOKIE_SECONDS = 10 * 60;

const FORM_LIMIT_BYTES = 16 * 1024;
const INTERACTION = /^\/oauth\/interaction\/([A-Za-z0-9_-]+)(?:\/(sign-in|consent))?$/;

/**
 * The sign-in and consent steps of an authorization (oidc-provider's "interactions"): a form with one
 * secret field, then a page naming the client, where it sends the code and the permissions it asks
 * for. The interaction cookie oidc-provider sets binds each form to the browser that started it.
 */
export function mountInteractions(provider: Provider, args: { issuer: string; signIn: SignInMethod }): void {
  const basePath = issuerBasePath(args.issuer);
  const upstreamCallback = `${args.issuer}/oauth/callback`;
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
    if (ctx.method === 'GET' && !step) {
      ctx.type = 'html';
      ctx.body =
        details.prompt.name === 'login'
          ? signInPage({ action: action('sign-in'), clientName })
          : consentPage({
              action: action('consent'),
              clientName,
              clientId: String(details.params.client_id),
              redirectHost: hostOf(String(details.params.redirect_uri)),
              permissions: requestedPermissions(details.prompt.details),
            });
      return;
    }
    if (ctx.method !== 'POST' || !step) ctx.throw(405);
    const form = await readForm(ctx);

    if (step === 'sign-in') {
      if (args.signIn.kind !== 'token') return ctx.throw(404);
      const accountId = await args.signIn.verify(form.get('token') ?? '');
      if (!accountId) {
        ctx.status = 401;
        ctx.type = 'html';
        ctx.body = signInPage({ action: action('sign-in'), clientName, error: 'That token is not valid for this server.' });
        return;
      }
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId, remember: false } }, { mergeWithLastSubmission: false });
      return;
    }

    if (form.get('decision') !== 'allow') {
      await provider.interactionFinished(ctx.req, ctx.res, { error: 'access_denied', error_description: 'The user denied access.' }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId;
    if (!accountId) ctx.throw(400, 'not signed in');
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    if (!grant) return ctx.throw(400, 'grant expired');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(ctx.req, ctx.res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
  });
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
