/**
 * The desktop app's updater (main/updater.ts), reached through the preload's `update` and
 * `onUpdateStatus` and parsed here with the contract's schema. Main pushes every change of state; an
 * answer is taken only when no push came meanwhile (a push is never older). In a browser there is
 * none: `updates.available()` is false.
 */
import { createSignal } from 'solid-js';
import { updateStatusSchema, type UpdateRequest, type UpdateStatus } from '../../../sync/protocol/desktop.js';
import { rpcResultSchema } from '../../../sync/protocol/rpc.js';
import { BridgeError } from './bridge-error.js';

const api = () => (typeof window === 'undefined' ? undefined : window.zulip);
const [status, setStatus] = createSignal<UpdateStatus | undefined>();
let listening = false;
let pushes = 0;

async function ask(action: UpdateRequest['action']): Promise<void> {
  const zulip = api();
  if (typeof zulip?.update !== 'function') return;
  if (!listening && typeof zulip.onUpdateStatus === 'function') {
    listening = true;
    zulip.onUpdateStatus((raw) => {
      const s = updateStatusSchema.safeParse(raw);
      if (!s.success) return console.warn('updates: dropped a state outside the contract');
      pushes++;
      setStatus(s.data);
    });
  }
  const before = pushes;
  const r = rpcResultSchema.safeParse(await zulip.update(action));
  if (!r.success) throw new BridgeError('INTERNAL', 'updates: the answer does not match the contract');
  if (!r.data.ok) throw new BridgeError(r.data.error.code, r.data.error.message);
  const s = updateStatusSchema.safeParse(r.data.value);
  if (!s.success) throw new BridgeError('INTERNAL', 'updates: the answer does not match the contract');
  if (pushes === before) setStatus(s.data);
}

export const updates = {
  available: (): boolean => typeof api()?.update === 'function',
  /** The updater's state once loaded (undefined before, and in a browser). */
  status,
  load: (): Promise<void> => ask('status'),
  check: (): Promise<void> => ask('check'),
  /** "Restart to update": main closes the engine, then installs and quits. */
  install: (): Promise<void> => ask('install'),
};
