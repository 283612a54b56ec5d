/**
 * The user card (Zulip web's user_card_popover.ts): opened from a message's sender name or avatar
 * and from the user list. Name, role, the email when visible, local time, status, presence, and
 * "Send a direct message", "View messages", Mute / Unmute (not for oneself). Escape or a press
 * outside closes it; focus goes back to what opened it. One card at a time, app-wide
 * (`openUserCard`), rendered by `UserCardHost` in the main screen.
 */
import { createSignal, Show } from 'solid-js';
import { Popover } from '../kit/Popover.js';
import { Button } from '../kit/Button.js';
import { avatarTone, initials } from '../kit/format.js';
import { AvatarImage } from '../shared/AvatarImage.js';
import { useNow } from '../kit/now.js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import { useCompose } from '../data/compose.js';
import { hashOfTarget } from '../data/target.js';
import { buildHash, dmSlug } from '../core/hash.js';
import { useRouter } from '../router/router.js';
import { useActions } from '../actions/store.js';
import { localTime, PRESENCE_WORDS, roleName, visibleEmail } from './people.js';
import './people.css';

const [open, setOpen] = createSignal<{ userId: number; anchor: HTMLElement } | null>(null);

/** Show a person's card next to `anchor` (the button that was pressed); pressing it again closes it. */
export function openUserCard(userId: number, anchor: HTMLElement): void {
  const now = open();
  setOpen(now?.anchor === anchor ? null : { userId, anchor });
}

/** The accessible name of a control opening someone's card. */
export const cardButtonName = (name: string) => `${name}: show the user card`;

export function UserCardHost() {
  return <Show when={open()}>{(o) => <UserCard userId={o().userId} anchor={o().anchor} />}</Show>;
}

function UserCard(props: { userId: number; anchor: HTMLElement }) {
  const users = useUsers();
  const settings = useSettings();
  const compose = useCompose();
  const router = useRouter();
  const actions = useActions();
  const now = useNow(30_000);
  const user = () => users.byId().get(props.userId);
  const name = () => user()?.full_name ?? 'Unknown user';
  const self = () => props.userId === users.state.ownUserId;
  const presence = () => users.presenceOf(props.userId);
  const status = () => {
    const p = presence();
    return p ? [p.emoji_code && emojiOf(p.emoji_code, p.reaction_type), p.status_text].filter(Boolean).join(' ') : '';
  };
  const close = (refocus = true) => {
    // Read before closing: the props go stale once the card is gone.
    const anchor = props.anchor;
    setOpen(null);
    if (refocus && anchor.isConnected) anchor.focus();
  };
  // The place is worked out before the card closes (its props go stale then).
  const go = (hash: string) => {
    close(false);
    router.navigate(hash);
  };
  const sendDm = () => {
    compose.focusNextOpened();
    compose.close();
    go(hashOfTarget({ kind: 'dm', userIds: [props.userId] }, () => user()?.full_name));
  };
  const viewMessages = () => go(buildHash({ kind: 'narrow', terms: [{ operator: 'sender', operand: dmSlug([props.userId], user()?.full_name ?? null), negated: false }] }));
  return (
    <Popover anchor={props.anchor} onClose={(why) => close(why === 'escape')} class="user-card" role="dialog" aria-label={`User card: ${name()}`} onOpened={(panel) => panel.querySelector('button')?.focus()}>
      <div class="user-card-head">
        <div class={`avatar user-card-avatar tone-${avatarTone(props.userId)}`} aria-hidden="true">
          {initials(name())}
          <AvatarImage url={user()?.avatar_url} />
        </div>
        <div>
          <h2 class="user-card-name">{name()}</h2>
          <p class="user-card-presence">
            <span class={`presence-dot presence-${presence()?.presence ?? 'offline'}`} aria-hidden="true" />
            {PRESENCE_WORDS[presence()?.presence ?? 'offline']}
          </p>
        </div>
      </div>
      <dl class="user-card-fields">
        <Show when={status()}>
          <dt>Status</dt>
          <dd class="user-card-status">{status()}</dd>
        </Show>
        <dt>Role</dt>
        <dd>{roleName(user() ?? { role: null, is_bot: false })}</dd>
        <Show when={user() && visibleEmail(user() ?? { email: '', delivery_email: null })}>
          {(email) => (
            <>
              <dt>Email</dt>
              <dd>{email()}</dd>
            </>
          )}
        </Show>
        <Show when={localTime(user()?.timezone, now(), settings.display().twentyFourHour === true)}>
          {(t) => (
            <>
              <dt>Local time</dt>
              <dd>{t()}</dd>
            </>
          )}
        </Show>
      </dl>
      <div class="user-card-actions">
        <Button variant="primary" size="small" onClick={sendDm}>
          Send a direct message
        </Button>
        <Button variant="quiet" size="small" onClick={viewMessages}>
          View messages
        </Button>
        <Show when={!self()}>
          <Button variant="quiet" size="small" onClick={() => actions.setUserMuted(props.userId, !users.isMuted(props.userId))}>
            {users.isMuted(props.userId) ? 'Unmute' : 'Mute'}
          </Button>
        </Show>
      </div>
    </Popover>
  );
}

/** A Unicode status emoji from its code ("1f697", "1f1fa-1f1f8"); custom emoji show by name elsewhere. */
function emojiOf(code: string, type: string): string {
  if (type !== 'unicode_emoji' && type !== '') return '';
  try {
    return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return '';
  }
}
