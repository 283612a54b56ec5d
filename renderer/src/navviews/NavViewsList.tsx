/**
 * The sidebar's views, following the user's navigation views (engine query `navigationViews`, live
 * area `navigation_views`): pinned views are rows (with their unread / starred counts), the others
 * are under "More views". Each row's menu unpins it, and for a custom view renames or deletes it;
 * "More views" goes to or pins the others, and adds the current view to the sidebar under a name.
 * Every change is queued (it works offline); a view with a change not on the server yet says
 * "not saved yet" (or "change failed" with the server's words).
 */
import { createMemo, createSignal, For, onCleanup, Show } from 'solid-js';
import { createAreaQuery } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { useHome } from '../data/home.js';
import { Dialog, DialogActions } from '../kit/Dialog.js';
import { MoreIcon } from '../kit/icons.js';
import { Menu, MenuGroup, MenuItem, MenuSeparator } from '../kit/Menu.js';
import { useToasts } from '../kit/toasts.js';
import { useOutbox } from '../data/outbox.js';
import { useRouter } from '../router/router.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { addIntent, deleteIntent, isBuiltIn, pinIntent, refusalText, renameIntent, sidebarViews, type SidebarView, type StoredView, type ViewIntent } from './nav-views.js';
import './navviews.css';

type DialogState = { kind: 'add' } | { kind: 'rename'; view: SidebarView } | { kind: 'delete'; view: SidebarView };

function invokeIntent(bridge: Bridge, intent: ViewIntent): Promise<unknown> {
  switch (intent.op) {
    case 'addNavigationView':
      return bridge.invoke('addNavigationView', intent.request);
    case 'editNavigationView':
      return bridge.invoke('editNavigationView', intent.request);
    case 'deleteNavigationView':
      return bridge.invoke('deleteNavigationView', intent.request);
  }
}

export function NavViewsList(props: { bridge?: Bridge }) {
  const bridge = props.bridge ?? defaultBridge;
  const q = createAreaQuery<StoredView[]>(bridge, {
    fetch: () => bridge.invoke('navigationViews', {}),
    areas: ['navigation_views'],
    initial: [],
    key: 'fragment',
    onError: 'keep',
  });
  onCleanup(q.dispose);
  const outbox = useOutbox();
  const home = useHome();
  const router = useRouter();
  const toasts = useToasts();
  const views = createMemo(() => sidebarViews(q.state.data, outbox.state.rows));
  const [dialog, setDialog] = createSignal<DialogState | null>(null);
  // The menu's items are keyed by fragment (strings), so a refetch while it is open keeps them.
  const moreKeys = createMemo(() => views().more.map((v) => v.fragment), [], { equals: (a, b) => a.join('\n') === b.join('\n') });
  const more = (fragment: string) => views().more.find((v) => v.fragment === fragment);
  const withMore = (fragment: string, f: (v: SidebarView) => void) => {
    const v = more(fragment);
    if (v) f(v);
  };

  const here = () => router.hash().replace(/^#/, '');
  const isCurrent = (v: SidebarView) => {
    const kind = router.route().kind;
    return here() === v.fragment || (v.fragment === 'inbox' && kind === 'inbox') || (v.fragment === 'recent' && kind === 'recent');
  };
  const countOf = (v: SidebarView) => (v.count === null ? 0 : home.unread()[v.count]);
  const run = (intent: ViewIntent, done: string) =>
    invokeIntent(bridge, intent).then(
      () => toasts.show(done),
      (e: unknown) => toasts.show(errorText(e), 'error'),
    );
  const pin = (v: SidebarView, pinned: boolean) => void run(pinIntent(v.fragment, pinned, q.state.data), pinned ? `${v.label} pinned to the sidebar.` : `${v.label} moved to More views.`);

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
          if (state.kind === 'add') return <AddViewDialog fragment={here()} stored={q.state.data} run={run} onClose={close} />;
          if (state.kind === 'rename') return <RenameViewDialog view={state.view} stored={q.state.data} run={run} onClose={close} />;
          return <DeleteViewDialog view={state.view} run={run} onClose={close} />;
        }}
      </Show>
    </>
  );
}

function ViewRow(props: { view: SidebarView; current: boolean; count: number; onUnpin(): void; onRename(): void; onDelete(): void }) {
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

type Run = (intent: ViewIntent, done: string) => Promise<unknown>;

function Refusal(props: { text: string | null }) {
  return (
    <Show when={props.text}>
      <p class="error" role="alert">
        {props.text}
      </p>
    </Show>
  );
}

function AddViewDialog(props: { fragment: string; stored: readonly StoredView[]; run: Run; onClose(): void }) {
  const [name, setName] = createSignal('');
  const [fragment, setFragment] = createSignal(props.fragment);
  const [error, setError] = createSignal<string | null>(null);
  const builtIn = () => isBuiltIn(fragment().trim().replace(/^#+/, ''));
  const submit = (e: Event) => {
    e.preventDefault();
    const r = addIntent(fragment(), name(), props.stored);
    if ('error' in r) return setError(refusalText(r.error));
    props.onClose();
    void props.run(r, builtIn() ? 'View pinned to the sidebar.' : `“${name().trim()}” added to the sidebar.`);
  };
  return (
    <Dialog title="Add this view to the sidebar" class="navview-dialog" onClose={props.onClose}>
      <form onSubmit={submit} class="navview-form">
        <label class="navview-field">
          <span class="navview-label">Name</span>
          <input value={name()} onInput={(e) => (setName(e.currentTarget.value), setError(null))} placeholder={builtIn() ? 'Built-in views keep their name' : 'e.g. Team updates'} />
        </label>
        <label class="navview-field">
          <span class="navview-label">View (its link after #)</span>
          <input value={fragment()} onInput={(e) => (setFragment(e.currentTarget.value), setError(null))} />
        </label>
        <Refusal text={error()} />
        <DialogActions label="Add view" onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}

function RenameViewDialog(props: { view: SidebarView; stored: readonly StoredView[]; run: Run; onClose(): void }) {
  const [name, setName] = createSignal(props.view.label);
  const [error, setError] = createSignal<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const r = renameIntent(props.view.fragment, name(), props.stored);
    if ('error' in r) return setError(refusalText(r.error));
    props.onClose();
    void props.run(r, `View renamed to “${name().trim()}”.`);
  };
  return (
    <Dialog title={`Rename view ${props.view.label}`} class="navview-dialog" onClose={props.onClose}>
      <form onSubmit={submit} class="navview-form">
        <label class="navview-field">
          <span class="navview-label">New name</span>
          <input value={name()} onInput={(e) => (setName(e.currentTarget.value), setError(null))} />
        </label>
        <Refusal text={error()} />
        <DialogActions label="Rename" onCancel={() => props.onClose()} />
      </form>
    </Dialog>
  );
}

function DeleteViewDialog(props: { view: SidebarView; run: Run; onClose(): void }) {
  const [error, setError] = createSignal<string | null>(null);
  const remove = () => {
    const r = deleteIntent(props.view.fragment);
    if ('error' in r) return setError(r.error);
    props.onClose();
    void props.run(r, `View “${props.view.label}” deleted.`);
  };
  return (
    <Dialog title={`Delete view ${props.view.label}`} class="navview-dialog" onClose={props.onClose}>
      <p>{`Remove “${props.view.label}” from your views? The messages stay where they are.`}</p>
      <Refusal text={error()} />
      <DialogActions label="Delete view" onAction={remove} danger onCancel={() => props.onClose()} />
    </Dialog>
  );
}
