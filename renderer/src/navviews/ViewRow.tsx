import { Show } from 'solid-js';
import { MoreIcon } from '../kit/icons.js';
import { Menu, MenuItem } from '../kit/Menu.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import type { SidebarView } from './nav-views.js';

/** A pinned view in the sidebar: its link, a marker while a change is not saved, its count, and its menu. */
export function ViewRow(props: { view: SidebarView; current: boolean; count: number; onUnpin(): void; onRename(): void; onDelete(): void }) {
  const v = () => props.view;
  return (
    <li class="view">
      <div class="row">
        <a class="row-button view-button" href={v().href} aria-current={props.current ? 'page' : undefined}>
          <span class="row-name">{v().label}</span>
        </a>
        <Show when={v().pending}>
          {(p) => (
            <span class={p() === 'change failed' ? 'badge badge-failed view-marker' : 'badge badge-pending view-marker'} title={v().error ?? 'This change is not on the server yet'}>
              {p()}
            </span>
          )}
        </Show>
        <Show when={v().count === 'starred'} fallback={<UnreadBadge count={props.count} />}>
          <Show when={props.count > 0}>
            <span class="unread count-plain">
              {props.count}
              <span class="visually-hidden"> starred</span>
            </span>
          </Show>
        </Show>
        <Menu label={`Options for view ${v().label}`} button={<MoreIcon />} buttonClass="row-menu">
          <MenuItem onSelect={() => props.onUnpin()}>Unpin from the sidebar</MenuItem>
          <Show when={!v().builtIn}>
            <MenuItem onSelect={() => props.onRename()}>Rename view…</MenuItem>
            <MenuItem class="menu-danger" onSelect={() => props.onDelete()}>
              Delete view…
            </MenuItem>
          </Show>
        </Menu>
      </div>
      <Show when={v().error}>{(e) => <p class="error view-error">{e()}</p>}</Show>
    </li>
  );
}
