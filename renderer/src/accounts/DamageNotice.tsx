/**
 * The open account's database was found damaged and rebuilt (docs/sync-design.md "Damaged data"):
 * the engine's words for what happened and what was kept, shown until the person dismisses them.
 */
import { Show } from 'solid-js';
import { errorText } from '../core/errors.js';
import { useAccounts } from '../data/accounts.js';
import { Button } from '../kit/Button.js';
import { useToasts } from '../kit/toasts.js';
import './damage-notice.css';

export function DamageNotice() {
  const accounts = useAccounts();
  const toasts = useToasts();
  const dismiss = () => accounts.dismissDamageNotice().catch((e: unknown) => toasts.show(`Could not dismiss the notice. ${errorText(e)}`, 'error'));
  return (
    <Show when={accounts.state.data?.damage_notice}>
      {(notice) => (
        <div class="damage-notice" role="alert">
          <p>{notice().text}</p>
          <Button variant="primary" onClick={() => void dismiss()}>
            OK
          </Button>
        </div>
      )}
    </Show>
  );
}
