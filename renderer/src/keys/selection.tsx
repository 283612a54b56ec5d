/**
 * The selected message (Zulip web's "blue box"): moved by j / k / Home / End, clicked into, and
 * the message r or Enter replies to. The open message list registers what the keyboard needs
 * (its messages, which are on screen, scrolling one into view); the list draws the selection.
 */
import { createContext, createSignal, useContext, type Accessor, type JSX } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import type { NarrowTarget } from '../data/target.js';

/** What the open message list offers the keyboard. */
export interface MessageListApi {
  target(): NarrowTarget;
  messages(): readonly LocalMessage[];
  /** Ids of the messages on screen, top to bottom. */
  onScreen(): number[];
  /** Scroll so the message shows (rendering it first if the list is windowed). */
  reveal(id: number): void;
  toBottom(): void;
}

export interface SelectionStore {
  selected: Accessor<number | null>;
  /** `focus`: move the keyboard focus onto the message too (keyboard moves do). */
  select(id: number | null, opts?: { focus?: boolean }): void;
  /** Bumped when a selection wants the focus. */
  focusRequests: Accessor<number>;
  list: Accessor<MessageListApi | null>;
  attach(api: MessageListApi): () => void;
}

export function createSelectionStore(): SelectionStore {
  const [selected, setSelected] = createSignal<number | null>(null);
  const [focusRequests, setFocusRequests] = createSignal(0);
  const [list, setList] = createSignal<MessageListApi | null>(null);
  return {
    selected,
    select(id, opts) {
      setSelected(id);
      if (opts?.focus === true) setFocusRequests((n) => n + 1);
    },
    focusRequests,
    list,
    attach(api) {
      setList(() => api);
      setSelected(null);
      return () => {
        if (list() === api) setList(null);
        setSelected(null);
      };
    },
  };
}

const Ctx = createContext<SelectionStore>();

export function SelectionProvider(props: { children: JSX.Element }) {
  const store = createSelectionStore();
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useSelection(): SelectionStore {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSelection() used outside <SelectionProvider>');
  return s;
}
