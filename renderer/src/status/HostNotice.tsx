/**
 * The browser-mode host started again with a new sign-in and no longer knows this tab (the bridge
 * reports `refused`): said plainly, over whatever screen is shown, with the way back. The tab's
 * secret cannot be renewed from here (only the printed link hands one out), so the button opens
 * the host's page saying how to get that link.
 */
import { Show } from 'solid-js';
import { SIGNED_OUT_PATH } from '../../../sync/protocol/browser-host.js';
import { useStatus } from '../data/status.js';
import { HOST_REFUSED_TEXT } from '../data/status-reducer.js';
import { Button } from '../kit/Button.js';
import '../accounts/damage-notice.css';

export function HostNotice() {
  const status = useStatus();
  return (
    <Show when={status.state.hostRefused}>
      <div class="damage-notice" role="alert">
        <p>{HOST_REFUSED_TEXT}</p>
        <Button variant="primary" onClick={() => window.location.assign(SIGNED_OUT_PATH)}>
          How to sign in again
        </Button>
      </div>
    </Show>
  );
}
