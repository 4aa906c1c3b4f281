import type { UserPermission } from '../platform/auth/principal.js';

/** Plain HTML, no script: the pages work with any browser and keyboard alone. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const PERMISSION_TEXT: Record<UserPermission, string> = {
  'byok:read': 'See which model keys you saved (never the keys themselves)',
  'byok:write': 'Add and delete your model keys',
  'preferences:read': 'Read your preferences',
  'preferences:write': 'Change your preferences',
  'quota:read': 'See your usage and limits',
  'subscription:read': 'See your subscription',
  'session:read': 'Read your tutoring sessions',
  'session:write': 'Start, continue and end your tutoring sessions',
};

/** Headers every page carries: never framed (no clickjacking of the consent button), never cached. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  // same-origin, not no-referrer: with no-referrer the form posts carry `Origin: null`, which the Origin check refuses.
  'referrer-policy': 'same-origin',
};

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Tutor Nexus</title>
<style>
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { max-width: 34rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
label, input, button { display: block; font: inherit; }
input { width: 100%; padding: .5rem; margin: .25rem 0 1rem; box-sizing: border-box; }
button { padding: .5rem 1.25rem; margin: .5rem .5rem 0 0; display: inline-block; }
.error { color: #b00020; font-weight: 600; }
code { word-break: break-all; }
</style></head>
<body><main>${body}</main></body></html>`;
}

export function signInPage(args: { action: string; clientName: string; error?: string }): string {
  return layout(
    'Sign in',
    `<h1>Sign in to Tutor Nexus</h1>
<p>${escape(args.clientName)} wants to use Tutor Nexus as you. Paste the access token <code>npm start</code> printed (or another token this server accepts).</p>
${args.error ? `<p class="error" role="alert">${escape(args.error)}</p>` : ''}
<form method="post" action="${escape(args.action)}">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="off" required autofocus>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(args: { action: string; clientName: string; clientId: string; redirectHost: string; permissions: string[]; withheld?: string[] }): string {
  const items = args.permissions.map((p) => `<li><strong>${escape(p)}</strong>: ${escape(PERMISSION_TEXT[p as UserPermission] ?? p)}</li>`).join('');
  const withheld = args.withheld?.length
    ? `<p>It also asks for ${args.withheld.map((p) => `<strong>${escape(p)}</strong>`).join(', ')}, which the token you signed in with does not allow: it will not get ${args.withheld.length > 1 ? 'them' : 'it'}.</p>`
    : '';
  return layout(
    'Allow access',
    `<h1>Allow ${escape(args.clientName)} to use Tutor Nexus as you?</h1>
<p>Client <code>${escape(args.clientId)}</code> will receive access at <strong>${escape(args.redirectHost)}</strong>.</p>
${items ? `<p>It asks to:</p><ul>${items}</ul>` : '<p>It will get the public tools only (no access to your data).</p>'}
${withheld}
<form method="post" action="${escape(args.action)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function tooManyAttemptsPage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return layout(
    'Too many attempts',
    `<h1>Too many failed sign-ins</h1><p role="alert">Too many tokens that are not valid were tried from your network. Try again in ${minutes} minute${minutes > 1 ? 's' : ''}.</p>`,
  );
}

export function errorPage(error: string, description: string): string {
  return layout('Sign-in problem', `<h1>Sign-in problem</h1><p><code>${escape(error)}</code></p><p>${escape(description)}</p>`);
}
