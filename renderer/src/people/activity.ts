/**
 * Telling the engine whether the user is using the app (Zulip web's activity.ts): active while the
 * window is shown and has the focus or had the user's input in the last five minutes, idle
 * otherwise. Sent on focus, blur and visibility changes, and on input at most every 15 seconds;
 * the engine turns it into presence reports (sync/engine/presence.ts).
 */
import { onCleanup, onMount } from 'solid-js';
import type { Bridge } from '../core/bridge.js';

const INPUT_RECENT_MS = 5 * 60_000;
const INPUT_EVERY_MS = 15_000;

export function useActivityReports(bridge: Pick<Bridge, 'invoke'>): void {
  let lastInput = 0;
  let lastInputSent = 0;
  let pendingInput = false;
  const active = () => document.visibilityState === 'visible' && (document.hasFocus() || Date.now() - lastInput < INPUT_RECENT_MS);
  const send = () => {
    const input = pendingInput;
    pendingInput = false;
    bridge.invoke('reportActivity', { active: active(), new_user_input: input }).catch(() => undefined);
  };
  const onInput = () => {
    lastInput = Date.now();
    pendingInput = true;
    if (lastInput - lastInputSent < INPUT_EVERY_MS) return;
    lastInputSent = lastInput;
    send();
  };
  onMount(() => {
    send();
    window.addEventListener('focus', send);
    window.addEventListener('blur', send);
    document.addEventListener('visibilitychange', send);
    window.addEventListener('keydown', onInput, true);
    window.addEventListener('pointerdown', onInput, true);
  });
  onCleanup(() => {
    window.removeEventListener('focus', send);
    window.removeEventListener('blur', send);
    document.removeEventListener('visibilitychange', send);
    window.removeEventListener('keydown', onInput, true);
    window.removeEventListener('pointerdown', onInput, true);
  });
}
