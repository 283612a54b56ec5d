/**
 * Pure: the list of transient notices (toasts). Newest last; at most MAX_TOASTS, the oldest going
 * first; the same text shown twice in a row refreshes the existing one instead of stacking.
 */
export type ToastTone = 'info' | 'error';

export interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
  /** How long it stays, in ms (errors stay longer). */
  timeoutMs: number;
}

export const MAX_TOASTS = 4;
export const INFO_MS = 5000;
export const ERROR_MS = 10000;

export function makeToast(id: number, text: string, tone: ToastTone = 'info'): Toast {
  return { id, text, tone, timeoutMs: tone === 'error' ? ERROR_MS : INFO_MS };
}

/** The list with `t` added, and the id now showing its text (an existing one when repeated). */
export function addToast(list: readonly Toast[], t: Toast): { list: Toast[]; shown: number; replaced: number | null } {
  const last = list[list.length - 1];
  if (last && last.text === t.text && last.tone === t.tone) {
    return { list: [...list.slice(0, -1), { ...t }], shown: t.id, replaced: last.id };
  }
  const next = [...list, t];
  return { list: next.slice(Math.max(0, next.length - MAX_TOASTS)), shown: t.id, replaced: null };
}

export function dismissToast(list: readonly Toast[], id: number): Toast[] {
  return list.filter((t) => t.id !== id);
}
