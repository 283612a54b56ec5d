/**
 * A menu button and its menu (WAI-ARIA menu button pattern): the button says it opens a menu and
 * whether it is open; the menu's items are buttons with the `menuitem` (or `menuitemradio`) role.
 * Opening moves focus to the first item (ArrowUp on the button: the last); Down / Up / Home / End
 * move between items, Enter or Space chooses, Escape closes and gives focus back to the button,
 * Tab closes. Choosing an item closes the menu first (focus back on the button), then acts, so a
 * dialog it opens returns focus there too. Items are created only while the menu is open.
 */
import { createContext, createSignal, createUniqueId, Show, useContext, type JSX } from 'solid-js';
import { menuIndex } from './menu-keys.js';
import { Popover } from './Popover.js';
import './overlays.css';

const Ctx = createContext<{ close(): void }>();

const ITEMS = '[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]';

export interface MenuProps {
  /** The button's accessible name (and the menu's). */
  label: string;
  /** What the button shows (an icon); its name is `label`. */
  button: JSX.Element;
  buttonClass?: string;
  title?: string;
  children: JSX.Element;
  /** The menu opened or closed (e.g. to keep a hover bar visible meanwhile). */
  onOpenChange?(open: boolean): void;
}

export function Menu(props: MenuProps) {
  const [open, setOpen] = createSignal<false | 'first' | 'last'>(false);
  const id = createUniqueId();
  let button: HTMLButtonElement | undefined;

  const show = (focus: 'first' | 'last') => {
    setOpen(focus);
    props.onOpenChange?.(true);
  };
  const close = (refocus: boolean) => {
    if (open() === false) return;
    setOpen(false);
    props.onOpenChange?.(false);
    if (refocus && button?.isConnected) button.focus();
  };

  const items = (menu: HTMLElement) => [...menu.querySelectorAll<HTMLElement>(ITEMS)];
  const onMenuKey = (e: KeyboardEvent) => {
    const menu = e.currentTarget;
    if (!(menu instanceof HTMLElement)) return;
    if (e.key === 'Tab') {
      close(false);
      return;
    }
    const list = items(menu);
    const current = list.findIndex((el) => el === document.activeElement);
    const next = menuIndex(e.key, current, list.length);
    if (next === null) return;
    e.preventDefault();
    list[next]?.focus();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        class={props.buttonClass}
        aria-label={props.label}
        title={props.title ?? props.label}
        aria-haspopup="menu"
        aria-expanded={open() !== false}
        aria-controls={open() !== false ? id : undefined}
        onClick={() => (open() === false ? show('first') : close(false))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            show(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        {props.button}
      </button>
      <Show when={open() !== false && button}>
        {(anchor) => (
          <Popover
            anchor={anchor()}
            id={id}
            class="menu"
            role="menu"
            aria-label={props.label}
            onClose={(reason) => close(reason === 'escape')}
            onOpened={(panel) => {
              const list = items(panel);
              (open() === 'last' ? list[list.length - 1] : list[0])?.focus();
            }}
          >
            <div class="menu-items" onKeyDown={onMenuKey}>
              <Ctx.Provider value={{ close: () => close(true) }}>{props.children}</Ctx.Provider>
            </div>
          </Popover>
        )}
      </Show>
    </>
  );
}

export interface MenuItemProps {
  onSelect(): void;
  /** Shown but not choosable (and why, in its text). */
  disabled?: boolean;
  /** A radio item: whether it is the chosen one. */
  checked?: boolean;
  class?: string;
  children: JSX.Element;
}

export function MenuItem(props: MenuItemProps) {
  const menu = useContext(Ctx);
  return (
    <button
      type="button"
      role={props.checked === undefined ? 'menuitem' : 'menuitemradio'}
      aria-checked={props.checked === undefined ? undefined : props.checked}
      aria-disabled={props.disabled === true ? true : undefined}
      tabindex="-1"
      class={`menu-item ${props.class ?? ''}`}
      onClick={() => {
        if (props.disabled === true) return;
        menu?.close();
        props.onSelect();
      }}
    >
      <Show when={props.checked !== undefined}>
        <span class="menu-check" aria-hidden="true">
          {props.checked ? '●' : ''}
        </span>
      </Show>
      {props.children}
    </button>
  );
}

/** A labelled group of items (e.g. the radio items of one choice). */
export function MenuGroup(props: { label: string; children: JSX.Element }) {
  return (
    <div role="group" aria-label={props.label} class="menu-group">
      <div class="menu-group-label" aria-hidden="true">
        {props.label}
      </div>
      {props.children}
    </div>
  );
}

export function MenuSeparator() {
  return <div role="separator" class="menu-sep" />;
}
