/**
 * The sidebar's views, following the user's navigation views (engine query `navigationViews`, live
 * area `navigation_views`): pinned views are rows (with their unread / starred counts), the others
 * are under "More views". Each row's menu unpins it, and for a custom view renames or deletes it;
 * "More views" goes to or pins the others, and adds the current view to the sidebar under a name.
 * Every change is queued (it works offline); a view with a change not on the server yet says
 * "not saved yet" (or "change failed" with the server's words).
 */
import { createMemo, createSelector, createSignal, For, Show } from 'solid-js';
import { useAreaQuery } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { useHome } from '../data/home.js';
import { Menu, MenuGroup, MenuItem, MenuSeparator } from '../kit/Menu.js';
import { useToasts } from '../kit/toasts.js';
import { useOutbox } from '../data/outbox.js';
import { useRouter } from '../router/router.js';
import { pinIntent, sidebarViews, type SidebarView, type StoredView, type ViewIntent } from './nav-views.js';
import { ViewRow } from './ViewRow.js';
import { AddViewDialog, DeleteViewDialog, RenameViewDialog } from './NavViewDialogs.js';
import './navviews.css';

type DialogState = { kind: 'add' } | { kind: 'rename'; view: SidebarView } | { kind: 'delete'; view: SidebarView };

function invokeIntent(bridge: Bridge, intent: ViewIntent): Promise<unknown> {
  switch (intent.op) {
    case 'addNavigationView':
      return bridge.invoke('addNavigationView', intent.request);
    case 'editNavigationView':
      return bridge.invoke('editNavigationView', intent.request);
    case 'removeNavigationView':
      return bridge.invoke('removeNavigationView', intent.request);
  }
}

export function NavViewsList(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const stored = useAreaQuery<StoredView[]>(bridge, {
    fetch: () => bridge.invoke('navigationViews', {}),
    areas: ['navigation_views'],
    initial: [],
    key: 'fragment',
    onError: 'keep',
  });
  const outbox = useOutbox();
  const home = useHome();
  const router = useRouter();
  const toasts = useToasts();
  const views = createMemo(() => sidebarViews(stored.data, outbox.state.rows));
  const [dialog, setDialog] = createSignal<DialogState | null>(null);
  // The menu's items are keyed by fragment (strings), so a refetch while it is open keeps them.
  const moreKeys = createMemo(() => views().more.map((v) => v.fragment), [], { equals: (a, b) => a.join('\n') === b.join('\n') });
  const more = (fragment: string) => views().more.find((v) => v.fragment === fragment);
  const withMore = (fragment: string, f: (v: SidebarView) => void) => {
    const v = more(fragment);
    if (v) f(v);
  };

  // Selectors: a switch re-runs the rows it opens and leaves, not every row.
  const here = () => router.hash().replace(/^#/, '');
  const isHere = createSelector(here);
  const kindIs = createSelector(() => router.route().kind);
  const isCurrent = (v: SidebarView) => isHere(v.fragment) || (v.fragment === 'inbox' && kindIs('inbox')) || (v.fragment === 'recent' && kindIs('recent'));
  const countOf = (v: SidebarView) => (v.count === null ? 0 : home.unread()[v.count]);
  const run = (intent: ViewIntent, done: string) =>
    invokeIntent(bridge, intent).then(
      () => toasts.show(done),
      (e: unknown) => toasts.show(errorText(e), 'error'),
    );
  const pin = (v: SidebarView, pinned: boolean) => void run(pinIntent(v.fragment, pinned, stored.data), pinned ? `${v.label} pinned to the sidebar.` : `${v.label} moved to More views.`);

  return (
    <>
      <ul class="view-list" aria-label="Views">
        {/* Keyed by fragment (a string), so a refetch keeps each row, and its open menu, in place. */}
        <For each={views().pinned.map((v) => v.fragment)}>
          {(fragment) => (
            <Show when={views().pinned.find((v) => v.fragment === fragment)}>
              {(v) => (
                <ViewRow
                  view={v()}
                  current={isCurrent(v())}
                  count={countOf(v())}
                  onUnpin={() => pin(v(), false)}
                  onRename={() => setDialog({ kind: 'rename', view: v() })}
                  onDelete={() => setDialog({ kind: 'delete', view: v() })}
                />
              )}
            </Show>
          )}
        </For>
        <li class="view">
          <div class="row">
            <Menu label="More views" button={<span class="row-name">More views</span>} buttonClass="row-button view-button more-views">
              <Show when={views().more.length > 0}>
                <MenuGroup label="Go to">
                  <For each={moreKeys()}>
                    {(f) => (
                      <MenuItem onSelect={() => router.navigate(`#${f}`)}>
                        {more(f)?.label ?? f}
                        {more(f)?.pending ? ` (${more(f)?.pending})` : ''}
                      </MenuItem>
                    )}
                  </For>
                </MenuGroup>
                <MenuSeparator />
                <MenuGroup label="Pin to the sidebar">
                  <For each={moreKeys()}>{(f) => <MenuItem onSelect={() => withMore(f, (v) => pin(v, true))}>{`Pin ${more(f)?.label ?? f}`}</MenuItem>}</For>
                </MenuGroup>
                <Show when={views().more.some((v) => !v.builtIn)}>
                  <MenuGroup label="Delete a custom view">
                    <For each={moreKeys().filter((f) => more(f)?.builtIn === false)}>
                      {(f) => <MenuItem onSelect={() => withMore(f, (v) => setDialog({ kind: 'delete', view: v }))}>{`Delete ${more(f)?.label ?? f}…`}</MenuItem>}
                    </For>
                  </MenuGroup>
                </Show>
                <MenuSeparator />
              </Show>
              <MenuItem onSelect={() => setDialog({ kind: 'add' })}>Add this view to the sidebar…</MenuItem>
            </Menu>
          </div>
        </li>
      </ul>
      <Show when={dialog()}>
        {(d) => {
          const state = d();
          const close = () => setDialog(null);
          if (state.kind === 'add') return <AddViewDialog fragment={here()} stored={stored.data} run={run} onClose={close} />;
          if (state.kind === 'rename') return <RenameViewDialog view={state.view} stored={stored.data} run={run} onClose={close} />;
          return <DeleteViewDialog view={state.view} run={run} onClose={close} />;
        }}
      </Show>
    </>
  );
}
