/**
 * The organisations bar, at the far left as zulip-desktop has it: a tile per signed-in account
 * (its initials, its unread count, a mark while it cannot reach its server), in the person's order.
 * A click shows that organisation (the others stay open and sync in the background); so do
 * Ctrl+Tab / Ctrl+Shift+Tab and Ctrl+1..9 (org-keys.ts). Each tile's menu moves it up or down and
 * signs out of it (the sign-out dialog asks first when work would be left behind); "Add
 * organisation" opens the sign-in screen over the shown one, signing nobody out.
 */
import { createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import type { Organisation, SignOutCheck } from '../../../sync/protocol/accounts.js';
import { beginSignOut, SignOutDialog } from '../accounts/SignOutDialog.js';
import { addOrganisation } from '../accounts/app-links.js';
import { errorText } from '../core/errors.js';
import { useAccounts } from '../data/accounts.js';
import { unreadBadge } from '../kit/format.js';
import { MoreIcon } from '../kit/icons.js';
import { Menu, MenuItem } from '../kit/Menu.js';
import { useToasts } from '../kit/toasts.js';
import { moved, orgForKey, tileLetters } from './org-keys.js';
import './orgs.css';

const OFFLINE = new Set<Organisation['connection']>(['offline', 'error', 'unauthorized', 'closed', 'disk_full']);

/** What a screen reader hears and the tooltip says. */
export function orgLabel(o: Organisation): string {
  return `Organisation ${o.name}, ${o.unread} unread${OFFLINE.has(o.connection) ? ', not connected' : ''}`;
}

export function OrgBar() {
  const accounts = useAccounts();
  const toasts = useToasts();
  const [asking, setAsking] = createSignal<{ id: string; check: SignOutCheck } | null>(null);
  const shown = () => accounts.state.data?.active ?? null;
  const ids = () => accounts.organisations().map((o) => o.id);
  const letters = () => tileLetters(accounts.organisations().map((o) => o.name));
  const show = (id: string) => {
    if (id === shown()) return;
    accounts.switchTo(id).catch((e: unknown) => toasts.show(`Could not open that organisation. ${errorText(e)}`, 'error'));
  };
  const move = (id: string, by: -1 | 1) => void accounts.reorder(moved(ids(), id, by)).catch((e: unknown) => toasts.show(`Could not move it. ${errorText(e)}`, 'error'));
  const signOut = (id: string) => {
    beginSignOut(id, (check) => setAsking({ id, check }), (queued) => accounts.signOut(id, queued)).catch((e: unknown) => toasts.show(`Could not sign out. ${errorText(e)}`, 'error'));
  };
  onMount(() => {
    const onKey = (e: KeyboardEvent) => {
      const id = orgForKey(e, ids(), shown());
      if (id === null) return;
      e.preventDefault();
      e.stopPropagation();
      show(id);
    };
    window.addEventListener('keydown', onKey, true);
    onCleanup(() => window.removeEventListener('keydown', onKey, true));
  });
  return (
    <nav class="orgbar" aria-label="Organisations">
      <ul class="org-list">
        <For each={accounts.organisations()}>
          {(o, i) => (
            <li class="org" classList={{ 'org-shown': o.id === shown() }}>
              {/* The initials are drawn by CSS (data-initials): the accessible name is the sentence, not two letters. */}
              <button type="button" class="org-tile" data-initials={letters()[i()]} aria-label={orgLabel(o)} title={orgLabel(o)} aria-current={o.id === shown() ? 'true' : undefined} onClick={() => show(o.id)}>
                <Show when={o.unread > 0}>
                  <span class="org-badge" aria-hidden="true">
                    {unreadBadge(o.unread)}
                  </span>
                </Show>
                <Show when={OFFLINE.has(o.connection)}>
                  <span class="org-offline" aria-hidden="true" />
                </Show>
              </button>
              <Menu label={`Options for ${o.name}`} button={<MoreIcon />} buttonClass="org-more">
                <MenuItem disabled={i() === 0} onSelect={() => move(o.id, -1)}>
                  Move up
                </MenuItem>
                <MenuItem disabled={i() === accounts.organisations().length - 1} onSelect={() => move(o.id, 1)}>
                  Move down
                </MenuItem>
                <MenuItem onSelect={() => signOut(o.id)}>Sign out of {o.name}</MenuItem>
              </Menu>
            </li>
          )}
        </For>
      </ul>
      <button type="button" class="org-add" aria-label="Add organisation" title="Add organisation" onClick={() => addOrganisation()}>
        <span aria-hidden="true">+</span>
      </button>
      <Show when={asking()}>{(a) => <SignOutDialog id={a().id} check={a().check} onClose={() => setAsking(null)} />}</Show>
    </nav>
  );
}
