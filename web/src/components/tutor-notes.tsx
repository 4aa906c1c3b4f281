import { settingsLink } from '../signed-in.js';
import type { TutorAvailability } from '../use-session-list.js';

/** Signed out where only signed-in students are answered (or the token was refused): sign-in comes before any form. */
export function SignInFirst({ back, expired }: { back: string; expired: boolean }) {
  return (
    <section class="panel" aria-labelledby="signin-first">
      <h2 id="signin-first">{expired ? 'Your sign-in has expired' : 'Sign in to use the tutor'}</h2>
      <p>
        {expired
          ? 'This browser\'s sign-in is no longer accepted. Sign in again to continue your sessions.'
          : 'The tutor here answers signed-in students, with a provider key of their own. Your sessions then follow you to every device.'}
      </p>
      <p>
        <a class="button" href={settingsLink(back)}>
          Sign in
        </a>
      </p>
    </section>
  );
}

const NO_MODEL: Record<string, { title: string; body: string; link: string }> = {
  'provider-key': {
    title: 'The tutor needs your provider key',
    body: 'No model answers on this server without one. Add an OpenAI, Anthropic or OpenAI-compatible key; until then, what you send is kept as a draft.',
    link: 'Add a key in Settings',
  },
  'default-key': {
    title: 'Choose the key the tutor uses',
    body: 'You have several provider keys and none is the default. Until you choose one, what you send is kept as a draft.',
    link: 'Choose a key in Settings',
  },
};

/** Signed in with no model to answer: say so before a question is typed, with the way to fix it. */
export function NoModelNote({ tutor, back }: { tutor: TutorAvailability; back: string }) {
  const note = tutor.needs ? NO_MODEL[tutor.needs] : undefined;
  if (!note) return null;
  return (
    <section class="panel notice" aria-labelledby="no-model">
      <h2 id="no-model">{note.title}</h2>
      <p>{note.body}</p>
      <p>
        <a href={settingsLink(back)}>{note.link}</a>
      </p>
    </section>
  );
}
