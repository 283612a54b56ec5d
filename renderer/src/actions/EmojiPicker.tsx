/**
 * Adding a reaction: a button that opens the emoji picker next to it, a search box over the
 * built-in emoji (emoji.ts) and a grid of them. Typing filters; Enter in the box picks the first
 * match; Down moves into the grid, the arrow keys move in it, Enter or a click picks; Escape
 * closes. Picking an emoji the user already reacted with removes that reaction (a toggle), as
 * Zulip's picker does; the picker marks those emoji as chosen.
 */
import { createMemo, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { gridIndex } from '../kit/menu-keys.js';
import { Popover } from '../kit/Popover.js';
import { emojiChar, emojiLabel, searchEmoji, type EmojiEntry } from './emoji.js';
import { reactionToggle, type ReactionRequest } from './reactions.js';

/** Columns of the grid (the CSS draws the same number). */
const COLUMNS = 8;

export function EmojiPicker(props: { chosen: ReadonlySet<string>; onPick(e: EmojiEntry): void }) {
  const [query, setQuery] = createSignal('');
  const results = createMemo(() => searchEmoji(query()));
  const gridId = createUniqueId();
  let grid: HTMLDivElement | undefined;
  const buttons = () => [...(grid?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const onGridKey = (e: KeyboardEvent) => {
    const list = buttons();
    const current = list.findIndex((b) => b === document.activeElement);
    if (e.key === 'ArrowUp' && current >= 0 && current < COLUMNS) {
      e.preventDefault();
      grid?.parentElement?.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    const next = gridIndex(e.key, current, list.length, COLUMNS);
    if (next === null) return;
    e.preventDefault();
    list[next]?.focus();
  };
  return (
    <div class="emoji-picker">
      <input
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        aria-controls={gridId}
        placeholder="Search emoji"
        value={query()}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            const first = results()[0];
            if (first) props.onPick(first);
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            buttons()[0]?.focus();
          }
        }}
        ref={(el) => queueMicrotask(() => el.focus())}
      />
      <div class="emoji-grid" id={gridId} ref={grid} role="group" aria-label="Emoji" onKeyDown={onGridKey}>
        <For each={results()}>
          {(e) => (
            <button
              type="button"
              class="emoji-choice"
              classList={{ chosen: props.chosen.has(e.code) }}
              aria-label={emojiLabel(e.names[0] ?? '')}
              aria-pressed={props.chosen.has(e.code)}
              title={`:${e.names[0] ?? ''}:`}
              onClick={() => props.onPick(e)}
            >
              {emojiChar(e.code)}
            </button>
          )}
        </For>
      </div>
      <Show when={results().length === 0}>
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
  const chosen = createMemo(() => new Set(props.message.reactions.filter((r) => r.user_id === props.ownUserId && r.reaction_type === 'unicode_emoji').map((r) => r.emoji_code)));
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
    props.onReact(reactionToggle(props.message.reactions, props.ownUserId, { emoji_name: e.names[0] ?? '', emoji_code: e.code, reaction_type: 'unicode_emoji' }));
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
