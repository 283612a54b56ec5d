/**
 * Adding a reaction: a button that opens the emoji picker next to it. The picker has a search box
 * over every emoji's names and aliases (emoji.ts, the realm's custom emoji included), category tabs
 * in Zulip's order ("Recently used" first when there are any, the realm's "Custom" last), and the
 * emoji by category below them. Sections render their emoji when scrolled near (or their tab is
 * chosen), so opening stays fast with ~1,900 emoji. Typing filters to one list of matches; Enter in
 * the box picks the first; Down moves into the emoji, the arrow keys move among them, Enter or a
 * click picks; Left / Right move between tabs; Escape closes. Picking an emoji the user already
 * reacted with removes that reaction (a toggle), as Zulip's picker does; the picker marks those.
 */
import { createMemo, createSignal, createUniqueId, For, onCleanup, Show, type JSX } from 'solid-js';
import { EMOJI_CATEGORIES } from '../../../common/emoji.js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { useAccounts } from '../data/accounts.js';
import { gridIndex } from '../kit/menu-keys.js';
import { Popover } from '../kit/Popover.js';
import { CUSTOM_CATEGORY, emojiChar, emojiLabel, emojiReactionType, searchEmoji, type EmojiEntry } from '../shared/emoji.js';
import { useRealmEmoji, type RealmEmojiStore } from '../shared/realm-emoji.js';
import { emojiKey, noteRecentEmoji, recentEmojiKeys, recentEntries } from './recent-emoji.js';
import { reactionToggle, type ReactionRequest } from './reactions.js';

/** Columns of the grid (the CSS draws the same number). */
const COLUMNS = 8;
/** A grid row's height plus the gap under it, and the gap, in px (the CSS's): a section not drawn yet takes the room it will (nothing shifts when it is). */
const ROW_PX = 34;
const GAP_PX = 2;
export const RECENT_CATEGORY = 'Recently used';

interface Section {
  readonly name: string;
  readonly list: readonly EmojiEntry[];
}

const bySection = (list: readonly EmojiEntry[]): Section[] => EMOJI_CATEGORIES.map((name) => ({ name, list: list.filter((e) => e.category === name) }));

/** One emoji button: the character, or a custom emoji's image. */
function EmojiChoice(props: { e: EmojiEntry; chosen: boolean; realm: RealmEmojiStore; onPick(e: EmojiEntry): void }) {
  const name = () => props.e.names[0] ?? '';
  return (
    <button type="button" class="emoji-choice" classList={{ chosen: props.chosen }} aria-label={emojiLabel(name())} aria-pressed={props.chosen} title={`:${name()}:`} onClick={() => props.onPick(props.e)}>
      <Show when={props.e.url} fallback={emojiChar(props.e.code)}>
        {(url) => <img class="emoji-img" src={props.realm.imageSrc(url()) ?? ''} alt="" />}
      </Show>
    </button>
  );
}

export function EmojiPicker(props: { chosen: ReadonlySet<string>; onPick(e: EmojiEntry): void }) {
  const realm = useRealmEmoji();
  const accounts = useAccounts();
  const [query, setQuery] = createSignal('');
  const all = realm.all;
  const unicodeSections = createMemo(() => bySection(realm.unicode()));
  const results = createMemo(() => (query().trim() === '' ? [] : searchEmoji(query(), all())));
  const sections = createMemo<Section[]>(() => {
    const recent = recentEntries(recentEmojiKeys(accounts.active()?.id), all());
    const custom = realm.entries();
    return [...(recent.length > 0 ? [{ name: RECENT_CATEGORY, list: recent }] : []), ...unicodeSections(), ...(custom.length > 0 ? [{ name: CUSTOM_CATEGORY, list: custom }] : [])];
  });
  const first = () => (query().trim() === '' ? sections()[0]?.list[0] : results()[0]);
  const id = createUniqueId();
  const sectionId = (i: number) => `${id}-s${i}`;
  // Sections with their emoji drawn: the first ones at once, the rest as they come near.
  const [drawn, setDrawn] = createSignal<ReadonlySet<string>>(new Set(sections().slice(0, 2).map((s) => s.name)));
  const draw = (name: string) => {
    if (!drawn().has(name)) setDrawn(new Set([...drawn(), name]));
  };
  const [current, setCurrent] = createSignal(sections()[0]?.name ?? '');
  let scroller: HTMLDivElement | undefined;
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (seen) => {
            for (const x of seen) {
              if (!x.isIntersecting) continue;
              draw((x.target as HTMLElement).dataset['section'] ?? '');
              observer?.unobserve(x.target);
            }
          },
          { rootMargin: '200px' },
        )
      : undefined;
  onCleanup(() => observer?.disconnect());
  const observe = (el: HTMLElement, name: string) => {
    if (observer) observer.observe(el);
    else draw(name);
  };
  const onScroll = () => {
    if (!scroller) return;
    const top = scroller.scrollTop + 4;
    let now = sections()[0]?.name ?? '';
    // Offsets are the scroller's own (it is positioned: the CSS's position: relative).
    for (const el of scroller.querySelectorAll<HTMLElement>('section[data-section]')) if (el.offsetTop <= top) now = el.dataset['section'] ?? now;
    setCurrent(now);
  };
  const showSection = (i: number) => {
    const s = sections()[i];
    if (!s || !scroller) return;
    draw(s.name);
    setCurrent(s.name);
    const el = scroller.querySelector<HTMLElement>(`#${CSS.escape(sectionId(i))}`);
    if (el) scroller.scrollTop = el.offsetTop;
  };
  const buttons = () => [...(scroller?.querySelectorAll<HTMLButtonElement>('button.emoji-choice') ?? [])];
  const onGridKey = (e: KeyboardEvent) => {
    const list = buttons();
    const at = list.findIndex((b) => b === document.activeElement);
    if (at < 0) return;
    if (e.key === 'ArrowUp' && at < COLUMNS) {
      e.preventDefault();
      scroller?.parentElement?.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    const next = gridIndex(e.key, at, list.length, COLUMNS);
    if (next === null) return;
    e.preventDefault();
    list[next]?.focus();
  };
  const onTabKey = (e: KeyboardEvent, i: number) => {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? sections().length - 1 : null;
    if (to === null || to < 0 || to >= sections().length) return;
    e.preventDefault();
    showSection(to);
    (e.currentTarget as HTMLElement).parentElement?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[to]?.focus();
  };
  const choice = (e: EmojiEntry) => <EmojiChoice e={e} chosen={props.chosen.has(emojiKey(e))} realm={realm} onPick={props.onPick} />;
  return (
    <div class="emoji-picker">
      <input
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query()}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            const f = first();
            if (f) props.onPick(f);
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            buttons()[0]?.focus();
          }
        }}
        ref={(el) => queueMicrotask(() => el.focus())}
      />
      <Show when={query().trim() === ''}>
        <div class="emoji-tabs" role="tablist" aria-label="Emoji categories">
          <For each={sections()}>
            {(s, i) => (
              <button
                type="button"
                role="tab"
                class="emoji-tab"
                aria-label={s.name}
                title={s.name}
                aria-selected={current() === s.name}
                aria-controls={sectionId(i())}
                tabIndex={current() === s.name ? 0 : -1}
                onClick={() => showSection(i())}
                onKeyDown={(e) => onTabKey(e, i())}
              >
                <Show when={s.list[0]?.url === undefined} fallback={<img class="emoji-img" src={realm.imageSrc(s.list[0]?.url ?? '') ?? ''} alt="" />}>
                  {s.name === RECENT_CATEGORY ? '🕘' : emojiChar(s.list[0]?.code ?? '')}
                </Show>
              </button>
            )}
          </For>
        </div>
      </Show>
      <div class="emoji-scroll" ref={scroller} onScroll={onScroll} onKeyDown={onGridKey}>
        <Show
          when={query().trim() === ''}
          fallback={
            <div class="emoji-grid" role="group" aria-label="Matching emoji">
              <For each={results()}>{choice}</For>
            </div>
          }
        >
          <For each={sections()}>
            {(s, i) => (
              <section class="emoji-section" id={sectionId(i())} data-section={s.name} role="tabpanel" aria-label={s.name} ref={(el) => observe(el, s.name)}>
                <h3 class="emoji-section-title" aria-hidden="true">
                  {s.name}
                </h3>
                <Show when={drawn().has(s.name)} fallback={<div style={{ height: `${Math.ceil(s.list.length / COLUMNS) * ROW_PX - GAP_PX}px` }} />}>
                  <div class="emoji-grid" role="group" aria-label={s.name}>
                    <For each={s.list}>{choice}</For>
                  </div>
                </Show>
              </section>
            )}
          </For>
        </Show>
      </div>
      <Show when={query().trim() !== '' && results().length === 0}>
        <p class="hint emoji-none" role="status">{`No emoji match “${query()}”.`}</p>
      </Show>
    </div>
  );
}

/** A button opening the picker for `message`; choosing an emoji adds or removes the user's reaction. */
export function ReactionButton(props: {
  message: LocalMessage;
  ownUserId: number | null;
  label: string;
  class: string;
  onReact(r: ReactionRequest): void;
  onOpenChange?(open: boolean): void;
  /** Receives a function opening the picker (a keyboard shortcut's way in). */
  opener?(open: () => void): void;
  children: JSX.Element;
}) {
  const [open, setOpen] = createSignal(false);
  let button: HTMLButtonElement | undefined;
  const accounts = useAccounts();
  const chosen = createMemo(() => new Set(props.message.reactions.filter((r) => r.user_id === props.ownUserId).map((r) => `${r.reaction_type}:${r.emoji_code}`)));
  const set = (v: boolean, refocus = false) => {
    setOpen(v);
    props.onOpenChange?.(v);
    if (!v && refocus && button?.isConnected) button.focus();
  };
  props.opener?.(() => {
    if (!open()) set(true);
  });
  const pick = (e: EmojiEntry) => {
    set(false, true);
    noteRecentEmoji(accounts.active()?.id, e);
    props.onReact(reactionToggle(props.message.reactions, props.ownUserId, { emoji_name: e.names[0] ?? '', emoji_code: e.code, reaction_type: emojiReactionType(e) }));
  };
  return (
    <>
      <button ref={button} type="button" class={props.class} aria-label={props.label} title={props.label} aria-haspopup="dialog" aria-expanded={open()} onClick={() => set(!open())}>
        {props.children}
      </button>
      <Show when={open() && button}>
        {(anchor) => (
          <Popover anchor={anchor()} class="emoji-popover" role="dialog" aria-label="Emoji picker" onClose={(reason) => set(false, reason === 'escape')}>
            <EmojiPicker chosen={chosen()} onPick={pick} />
          </Popover>
        )}
      </Show>
    </>
  );
}
