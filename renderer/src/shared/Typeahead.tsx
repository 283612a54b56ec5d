/**
 * A text input with suggestions, as the ARIA combobox pattern has it: the input owns a listbox
 * (`aria-controls`, `aria-expanded`, `aria-activedescendant`); typing or Down opens it, Down / Up move,
 * Enter or Tab takes the highlighted one, Escape closes the list (a second Escape goes to the
 * composer), a click takes one. Used for the new topic's name and the DM recipient picker.
 */
import { createSignal, createUniqueId, For, Show, type JSX } from 'solid-js';
import { moveHighlight } from './typeahead.js';
import './shared.css';

export interface Suggestion {
  key: string;
  label: string;
  detail?: string;
}

export interface TypeaheadProps {
  label: string;
  value: string;
  placeholder?: string;
  class?: string;
  suggestions: readonly Suggestion[];
  onInput(value: string): void;
  onPick(s: Suggestion): void;
  /** Keys the list does not take (Backspace on an empty picker, Escape with the list closed, ...). */
  onKeyDown?(e: KeyboardEvent): void;
  onBlur?(): void;
  ref?(el: HTMLInputElement): void;
  /** Highlight the first suggestion as one types, so Enter takes it (people); otherwise Enter keeps the text typed (a topic). */
  autoHighlight?: boolean;
}

export function Typeahead(props: TypeaheadProps) {
  const id = createUniqueId();
  const [open, setOpen] = createSignal(false);
  const [active, setActive] = createSignal(-1);
  const shown = () => (open() ? props.suggestions : []);
  const expanded = () => shown().length > 0;
  const pick = (s: Suggestion | undefined) => {
    if (!s) return;
    props.onPick(s);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open()) setOpen(true);
      setActive((a) => moveHighlight(a, props.suggestions.length, e.key === 'ArrowDown' ? 1 : -1));
      return;
    }
    if ((e.key === 'Enter' || e.key === 'Tab') && expanded() && active() >= 0) {
      e.preventDefault();
      pick(shown()[active()]);
      return;
    }
    if (e.key === 'Escape' && expanded()) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
      return;
    }
    props.onKeyDown?.(e);
  };
  return (
    <div class="typeahead" classList={{ [props.class ?? '']: props.class !== undefined }}>
      <input
        ref={props.ref}
        type="text"
        role="combobox"
        aria-label={props.label}
        aria-autocomplete="list"
        aria-expanded={expanded()}
        aria-controls={`${id}-list`}
        aria-activedescendant={expanded() && active() >= 0 ? `${id}-opt-${active()}` : undefined}
        autocomplete="off"
        placeholder={props.placeholder}
        value={props.value}
        onInput={(e) => {
          props.onInput(e.currentTarget.value);
          setOpen(true);
          setActive(props.autoHighlight === true && e.currentTarget.value.trim() !== '' ? 0 : -1);
        }}
        onBlur={() => {
          setOpen(false);
          props.onBlur?.();
        }}
        onKeyDown={onKeyDown}
      />
      <ul class="typeahead-list" id={`${id}-list`} role="listbox" aria-label={`${props.label} suggestions`} hidden={!expanded()}>
        <For each={shown()}>
          {(s, i) => (
            <TypeaheadOption id={`${id}-opt-${i()}`} active={active() === i()} onPick={() => pick(s)} label={s.label} detail={s.detail} />
          )}
        </For>
      </ul>
    </div>
  );
}

/**
 * One suggestion of a listbox whose focus stays in its field (an input or the composer's textarea):
 * picked on mousedown, not click, since a blur would close the list first. `children` come before
 * the label (an avatar, an emoji).
 */
export function TypeaheadOption(props: { id: string; active: boolean; onPick: () => void; label: string; detail?: string | undefined; children?: JSX.Element }) {
  return (
    <li
      id={props.id}
      role="option"
      aria-selected={props.active}
      classList={{ 'typeahead-option': true, active: props.active }}
      onMouseDown={(e) => {
        e.preventDefault();
        props.onPick();
      }}
    >
      {props.children}
      <span class="typeahead-label">{props.label}</span>
      <Show when={props.detail}>
        <span class="typeahead-detail">{props.detail}</span>
      </Show>
    </li>
  );
}
