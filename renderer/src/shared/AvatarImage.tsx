/**
 * A person's avatar image, drawn over their initials: loaded from the host like every realm image
 * (the engine fetches it, Gravatar's without the realm's credentials, and keeps it for offline),
 * never from the realm or another site. No avatar of their own, or one the host cannot give
 * (offline and not kept): nothing is drawn, so the initials show.
 */
import { createSignal, onCleanup, Show } from 'solid-js';
import { hostSession } from '../core/host-session.js';
import { useAccounts } from '../data/accounts.js';
import { avatarTone, initials } from '../kit/format.js';
import { avatarSrc, type ImageContext } from './images.js';
import './media.css';

/** Where the page loads realm images from, for the open account. */
export function useImageContext(): () => ImageContext {
  const accounts = useAccounts();
  return () => ({ realmUrl: accounts.active()?.realm_url ?? null, electron: typeof window.zulip?.invoke === 'function', uploadKey: hostSession()?.uploads });
}

/** After a failed load, the image is tried again this long after (ms), then no more. */
const RETRY_MS = [1_000, 3_000, 10_000, 30_000];

export function AvatarImage(props: { url: string | null | undefined }) {
  const ctx = useImageContext();
  const [failed, setFailed] = createSignal<string>();
  let tries = 0;
  let lastFailed: string | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(retry));
  const src = () => {
    const s = avatarSrc(props.url, ctx());
    return s === failed() ? undefined : s;
  };
  // A failed image shows the initials; it is tried again a few times (the host may not have it
  // yet: it fetches an avatar the first time it is asked for). Rows are kept while their data
  // changes (the user list), so a failure is not undone by the row being made again.
  const onError = (s: string) => {
    setFailed(s);
    // Another image (the person changed their avatar) gets its own tries.
    if (s !== lastFailed) tries = 0;
    lastFailed = s;
    const wait = RETRY_MS[tries++];
    if (wait === undefined) return;
    clearTimeout(retry);
    retry = setTimeout(() => {
      if (failed() === s) setFailed(undefined);
    }, wait);
  };
  return <Show when={src()}>{(s) => <img class="avatar-img" src={s()} alt="" onError={() => onError(s())} />}</Show>;
}

/**
 * A small avatar beside a name (the user list, the typeahead): decoration, hidden from assistive
 * technology, the initials drawn from data (never text, so the row's name stays the person's).
 */
export function PersonAvatar(props: { class: string; userId: number; name: string; url: string | null | undefined }) {
  return (
    <span class={`avatar person-avatar ${props.class} tone-${avatarTone(props.userId)}`} aria-hidden="true" data-initials={initials(props.name)}>
      <AvatarImage url={props.url} />
    </span>
  );
}
