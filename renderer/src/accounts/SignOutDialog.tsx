/**
 * Sign out, never dropping queued work silently: the engine says what would be left behind
 * (`signOutCheck`); with nothing, the account signs out at once; otherwise a dialog offers to send
 * it first, keep it for later, or discard it. A "send first" that cannot finish says what remains
 * and leaves the account signed in.
 */
import { createSignal, For, onCleanup, onMount } from 'solid-js';
import type { SignOutCheck } from '../../../sync/protocol/accounts.js';
import { bridge as defaultBridge, isBridgeError, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { choices, leftBehindText, mustAsk, type SignOutChoice } from './sign-out-reducer.js';
import { useAccounts } from '../data/accounts.js';
import './sign-out.css';
import { ErrorText } from '../kit/ErrorText.js';

/** Start a sign-out: resolves the check, then either signs out or opens the dialog via `ask`. */
export async function beginSignOut(id: string, ask: (c: SignOutCheck) => void, signOut: (queued?: SignOutChoice) => Promise<void>, bridge: Bridge = defaultBridge): Promise<void> {
  const c = await bridge.invoke('signOutCheck', { id });
  if (mustAsk(c)) ask(c);
  else await signOut();
}

export function SignOutDialog(props: { id: string; check: SignOutCheck; onClose: () => void; bridge?: Bridge }) {
  const accounts = useAccounts();
  const [busy, setBusy] = createSignal<SignOutChoice | null>(null);
  const [check, setCheck] = createSignal(props.check);
  const [error, setError] = createSignal<string | null>(null);
  let first: HTMLButtonElement | undefined;
  const choose = async (choice: SignOutChoice) => {
    setBusy(choice);
    setError(null);
    try {
      await accounts.signOut(props.id, choice);
      props.onClose();
    } catch (e) {
      const d = isBridgeError(e) && e.code === 'PENDING_CHANGES' ? e.details : undefined;
      if (d) setCheck({ pending: Number(d['pending'] ?? 0), failed: Number(d['failed'] ?? 0), conflict: Number(d['conflict'] ?? 0), drafts: Number(d['drafts'] ?? 0) });
      setError(choice === 'wait' ? `Not everything could be sent, so you are still signed in. ${errorText(e)}` : errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && busy() === null) props.onClose();
  };
  onMount(() => {
    first?.focus();
    document.addEventListener('keydown', onKey);
  });
  onCleanup(() => document.removeEventListener('keydown', onKey));
  return (
    <div class="modal-backdrop">
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby="sign-out-title" aria-describedby="sign-out-text">
        <h2 id="sign-out-title">Sign out with changes not on the server?</h2>
        <p id="sign-out-text">{leftBehindText(check())}</p>
        <ul class="sign-out-choices">
          <For each={choices(check())}>
            {(c, i) => (
              <li>
                <Button
                  ref={(el: HTMLButtonElement) => {
                    if (i() === 0) first = el;
                  }}
                  variant={c.danger ? 'default' : i() === 0 ? 'primary' : 'default'}
                  class={c.danger ? 'danger' : undefined}
                  disabled={busy() !== null}
                  onClick={() => void choose(c.choice)}
                >
                  {busy() === c.choice ? (c.choice === 'wait' ? 'Sending…' : 'Signing out…') : c.label}
                </Button>
                <span class="hint">{c.hint}</span>
              </li>
            )}
          </For>
        </ul>
        <ErrorText message={error()} />
        <div class="modal-actions">
          <Button variant="quiet" disabled={busy() !== null} onClick={() => props.onClose()}>
            Cancel
          </Button>
        </div>
      </div>
    </div>
  );
}
