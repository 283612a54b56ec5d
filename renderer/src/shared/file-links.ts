/**
 * Links to files of the realm in a message (`/user_uploads/.../plan.pdf`, not an image shown in
 * place): the realm serves them only to signed-in users, so a click never opens them in a tab. It
 * downloads the file through the engine (browser mode: the host's upload route as an attachment,
 * behind the tab's uploads key; Electron: main asks where to save it); offline, a file the device keeps still downloads, another one
 * says "not available offline" beside its link. Each such link gets a "Keep offline" button: the
 * engine fetches the file now and keeps it (`keepOffline`), and the button then says it is kept.
 */
import { createSignal } from 'solid-js';
import { realmUploadPath, uploadDownloadUrl, uploadFileName } from '../../../sync/protocol/uploads.js';
import { bridge } from '../core/bridge.js';
import type { ImageContext } from './sanitize.js';

export const NOT_AVAILABLE_OFFLINE = 'Not available offline';
const BUTTON_CLASS = 'keep-offline';
const NOTE_CLASS = 'file-note';
const COULD_NOT_DOWNLOAD = 'This file could not be downloaded';

const [kept, setKept] = createSignal<ReadonlySet<string>>(new Set());
let loaded = false;

/** The canonical paths kept offline (asked of the engine once, then updated by `keepOffline`). */
export function keptOffline(): ReadonlySet<string> {
  if (!loaded) {
    loaded = true;
    bridge.invoke('keptOffline', {}).then(
      (paths) => setKept(new Set(paths)),
      () => (loaded = false),
    );
  }
  return kept();
}

/** The upload a link names, when it is a file link (not an image link: those open the viewer). */
export function fileLinkPath(a: Element, ctx: ImageContext): string | undefined {
  if (ctx.realmUrl === null || a.querySelector('img') !== null) return undefined;
  return realmUploadPath(a.getAttribute('href') ?? '', ctx.realmUrl);
}

/** Give each file link in `root` its "Keep offline" button (or its kept state); the engine is asked only when there is one. */
export function decorateFileLinks(root: HTMLElement, ctx: ImageContext): void {
  for (const a of root.querySelectorAll('a[href]')) {
    const p = fileLinkPath(a, ctx);
    if (p === undefined) continue;
    const keptPaths = keptOffline();
    let b = a.nextElementSibling;
    if (!(b instanceof HTMLButtonElement && b.classList.contains(BUTTON_CLASS))) {
      b = document.createElement('button');
      (b as HTMLButtonElement).type = 'button';
      b.className = BUTTON_CLASS;
      b.setAttribute('data-path', p);
      a.after(b);
    }
    const name = uploadFileName(p);
    const isKept = keptPaths.has(p);
    b.setAttribute('aria-pressed', String(isKept));
    b.setAttribute('aria-label', isKept ? `Kept offline: ${name}` : `Keep offline: ${name}`);
    b.textContent = isKept ? 'Kept offline' : 'Keep offline';
  }
}

/** A click in message content on a file link or its button; true when it was one (handled). */
export function onFileClick(target: Element, ctx: ImageContext, e: MouseEvent): boolean {
  const button = target.closest<HTMLButtonElement>(`button.${BUTTON_CLASS}`);
  if (button !== null) {
    e.preventDefault();
    void keep(button);
    return true;
  }
  const a = target.closest('a');
  const p = a === null ? undefined : fileLinkPath(a, ctx);
  if (a === null || p === undefined) return false;
  e.preventDefault();
  void (ctx.electron ? save(a, p) : download(a, p, ctx));
  return true;
}

/** Electron: main asks where to save it and writes what the engine fetched (main/save-upload.ts). */
async function save(a: Element, p: string): Promise<void> {
  let reason: unknown = 'failed';
  try {
    const r = (await window.zulip?.saveUpload?.(p)) as { ok?: boolean; value?: { saved?: boolean; reason?: unknown } } | undefined;
    reason = r?.ok === true ? r.value?.reason : 'failed';
  } catch {
    // the answer stays "failed"
  }
  if (reason === 'unavailable') note(a.nextElementSibling ?? a, NOT_AVAILABLE_OFFLINE);
  else if (reason === 'not_found' || reason === 'failed') note(a.nextElementSibling ?? a, COULD_NOT_DOWNLOAD);
}

async function keep(button: HTMLButtonElement): Promise<void> {
  const p = button.getAttribute('data-path') ?? '';
  button.disabled = true;
  try {
    const r = await bridge.invoke('keepOffline', { path: p });
    if (r.kept) setKept(new Set([...kept(), p]));
    else note(button, r.reason === 'over_budget' ? 'Not kept: files kept offline have no room left' : r.reason === 'unavailable' ? NOT_AVAILABLE_OFFLINE : 'Not kept: the server refused the file');
  } catch {
    note(button, NOT_AVAILABLE_OFFLINE);
  } finally {
    button.disabled = false;
  }
}

/** Browser mode: ask the host first (a quiet 204 when it is not on the device and the server is unreachable), then save it. */
async function download(a: Element, p: string, ctx: ImageContext): Promise<void> {
  const url = uploadDownloadUrl(p, ctx.uploadKey);
  let status = 0;
  try {
    status = (await fetch(url, { method: 'HEAD', cache: 'no-store' })).status;
  } catch {
    // the host itself is unreachable: not available either
  }
  if (status !== 200) {
    note(a.nextElementSibling ?? a, status === 204 || status === 0 ? NOT_AVAILABLE_OFFLINE : COULD_NOT_DOWNLOAD);
    return;
  }
  const link = document.createElement('a');
  link.href = url;
  link.download = uploadFileName(p);
  link.click();
}

/** Words beside a file link (replacing earlier ones), announced politely. */
function note(after: Element, text: string): void {
  const old = after.nextElementSibling;
  const el = old instanceof HTMLElement && old.classList.contains(NOTE_CLASS) ? old : document.createElement('span');
  el.className = NOTE_CLASS;
  el.setAttribute('role', 'status');
  el.textContent = text;
  if (el !== old) after.after(el);
}
