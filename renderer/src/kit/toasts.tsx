/**
 * Toasts: transient notices at the bottom right (`useToasts().show(text, tone)`), each dismissed
 * by its close button or after its timeout. Info toasts are announced politely (role=status),
 * errors at once (role=alert). Replaces window.alert, which blocks the page.
 */
import { createContext, createSignal, For, onCleanup, useContext, type JSX } from 'solid-js';
import { Button } from './Button.js';
import { addToast, dismissToast, makeToast, type Toast, type ToastTone } from './toast-reducer.js';

export interface Toasts {
  list(): readonly Toast[];
  show(text: string, tone?: ToastTone): number;
  dismiss(id: number): void;
}

export function createToasts(): Toasts & { dispose(): void } {
  const [list, setList] = createSignal<Toast[]>([]);
  const timers = new Map<number, number>();
  let nextId = 1;
  const clear = (id: number) => {
    const t = timers.get(id);
    if (t !== undefined) window.clearTimeout(t);
    timers.delete(id);
  };
  const dismiss = (id: number) => {
    clear(id);
    setList((l) => dismissToast(l, id));
  };
  return {
    list,
    show(text, tone = 'info') {
      const toast = makeToast(nextId++, text, tone);
      const r = addToast(list(), toast);
      if (r.replaced !== null) clear(r.replaced);
      // Ids pushed out by the cap lose their timers too.
      for (const id of [...timers.keys()]) if (!r.list.some((t) => t.id === id)) clear(id);
      setList(r.list);
      timers.set(toast.id, window.setTimeout(() => dismiss(toast.id), toast.timeoutMs));
      return toast.id;
    },
    dismiss,
    dispose() {
      for (const id of [...timers.keys()]) clear(id);
    },
  };
}

const Ctx = createContext<Toasts>();

export function ToastProvider(props: { children: JSX.Element }) {
  const toasts = createToasts();
  onCleanup(toasts.dispose);
  return (
    <Ctx.Provider value={toasts}>
      {props.children}
      <Toaster toasts={toasts} />
    </Ctx.Provider>
  );
}

export function useToasts(): Toasts {
  const t = useContext(Ctx);
  if (!t) throw new Error('useToasts() used outside <ToastProvider>');
  return t;
}

function Toaster(props: { toasts: Toasts }) {
  return (
    <section class="toaster" aria-label="Notifications">
      <For each={props.toasts.list()}>
        {(t) => (
          <div class={`toast toast-${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
            <p class="toast-text">{t.text}</p>
            <Button variant="quiet" size="small" class="toast-close" aria-label="Dismiss notification" onClick={() => props.toasts.dismiss(t.id)}>
              ×
            </Button>
          </div>
        )}
      </For>
    </section>
  );
}
