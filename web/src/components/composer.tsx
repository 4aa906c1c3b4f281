import { useState } from 'preact/hooks';

type Use = (message: string) => Promise<boolean>;

/**
 * The message box: Enter sends, Shift+Enter starts a new line. The box empties as the message goes;
 * if the server did not take it, it comes back, so nothing typed is lost.
 */
export function Composer(props: { disabled: boolean; onSend: Use; onDraft: Use }) {
  const [text, setText] = useState('');
  const take = (use: Use) => {
    const message = text.trim();
    if (!message || props.disabled) return;
    setText('');
    void use(message).then((taken) => !taken && setText((current) => current || message));
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        take(props.onSend);
      }}
    >
      <label for="composer">Message the tutor (Enter sends, Shift+Enter for a new line)</label>
      <textarea
        id="composer"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            take(props.onSend);
          }
        }}
      />
      <div class="row">
        <button type="submit" disabled={props.disabled}>
          Send
        </button>
        <button type="button" class="secondary" disabled={props.disabled} onClick={() => take(props.onDraft)}>
          Save as draft
        </button>
      </div>
    </form>
  );
}
