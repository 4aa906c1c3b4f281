import type { ToolOutput } from '../../../functions/mcp/tools/define-tool.js';
import { useEffect, useState } from 'preact/hooks';
import { callTool, messageOf, signInWith, signOut } from '../api.js';
import { clearReturn, rememberReturn, returnPath, useSignedIn } from '../signed-in.js';
import { ErrorNote, Panel } from '../components/status.js';
import { ByokPanel } from '../components/byok-panel.js';
import { PreferencesPanel } from '../components/preferences-panel.js';
import { useTitle, useTool } from '../use-tool.js';
import { finishSignIn, startSignIn } from '../oauth.js';
import { navigate } from '../router.js';
import type { quotaContract } from '../../../functions/user/contracts/quota.js';
import type { subscriptionContract } from '../../../functions/user/contracts/subscription.js';

export function SettingsPage() {
  useTitle('Settings');
  const signedIn = useSignedIn();
  // Where the student came from (the tutor), to go back once signed in or once a key is added.
  const [back] = useState(() => rememberReturn(new URLSearchParams(location.search)));
  return (
    <>
      <h1>Settings</h1>
      {back && signedIn && (
        <p>
          <a href={back} onClick={clearReturn}>
            Back to the tutor
          </a>
        </p>
      )}
      <SignIn signedIn={signedIn} />
      {signedIn && (
        <>
          <PlanPanel />
          <ByokPanel />
          <PreferencesPanel />
        </>
      )}
    </>
  );
}

/** Signed in: back where sign-in was asked for (the tutor), else Settings without the callback's query. */
function afterSignIn(): void {
  const back = returnPath();
  clearReturn();
  navigate(back ?? '/settings', { replace: true });
}

/** OAuth with PKCE through the server's sign-in page, or a pasted token (`npm start`'s, or `npm run tn -- token create`). */
function SignIn({ signedIn }: { signedIn: boolean }) {
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    finishSignIn(new URLSearchParams(location.search)).then(
      (finished) => finished && afterSignIn(),
      (e: unknown) => {
        navigate('/settings', { replace: true });
        setError(messageOf(e));
      },
    );
  }, []);
  const oauth = () => startSignIn().catch((e: unknown) => setError(messageOf(e)));
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      await signInWith(entry.trim());
      await callTool('tn_user_subscription');
      setEntry('');
      afterSignIn();
    } catch (e) {
      await signOut();
      setError(messageOf(e));
    }
  };
  return (
    <section class="panel" aria-labelledby="signin-heading">
      <h2 id="signin-heading">Account</h2>
      {signedIn ? (
        <div class="row">
          <p>You are signed in on this browser.</p>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      ) : (
        <form class="row" onSubmit={submit}>
          <button type="button" onClick={() => void oauth()}>
            Sign in
          </button>
          <span class="muted">or</span>
          <div>
            <label for="token">Access token</label>
            <input id="token" type="password" autocomplete="off" value={entry} onInput={(e) => setEntry(e.currentTarget.value)} />
          </div>
          <button type="submit" class="secondary" disabled={!entry.trim()}>
            Use token
          </button>
        </form>
      )}
      {!signedIn && <p class="muted">Sign in opens the server's sign-in page. Or paste the token `npm start` prints, or a personal access token. Either is kept in this browser only.</p>}
      <ErrorNote message={error} />
    </section>
  );
}

function PlanPanel() {
  const quota = useTool<ToolOutput<typeof quotaContract>>('tn_user_quota', {});
  const plan = useTool<ToolOutput<typeof subscriptionContract>>('tn_user_subscription', {});
  const prompts = quota.data?.prompts;
  return (
    <Panel title="Plan and quota" id="plan" loading={quota.loading || plan.loading} error={quota.error ?? plan.error}>
      {plan.data && (
        <p>
          Plan: <strong>{plan.data.plan}</strong> ({plan.data.status}) · {plan.data.limits.promptsPerDay} prompts a day · up to {plan.data.limits.maxByokCredentials} keys
          {plan.data.renewsAt ? ` · renews ${plan.data.renewsAt.slice(0, 10)}` : ''}
        </p>
      )}
      {prompts && (
        <>
          <label id="quota-label">
            Prompts today: {prompts.current} of {prompts.max} used
          </label>
          <div class="meter" role="meter" aria-labelledby="quota-label" aria-valuemin={0} aria-valuemax={prompts.max} aria-valuenow={prompts.current}>
            <div style={{ width: `${Math.min(100, (prompts.current / Math.max(1, prompts.max)) * 100)}%` }} />
          </div>
          <p class="muted">Resets {new Date(prompts.resetsAt).toLocaleString()}</p>
        </>
      )}
    </Panel>
  );
}
