/**
 * The IPC channel names, duplicated from sync/protocol/rpc.ts so the sandboxed preload bundle stays
 * tiny: importing the protocol would pull zod into it. test/main/preload.test.ts asserts that these
 * equal the protocol's.
 */
export const CHANNELS = {
  invoke: 'zulip:invoke',
  event: 'zulip:event',
  subscribe: 'zulip:subscribe',
  unsubscribe: 'zulip:unsubscribe',
  stageUpload: 'zulip:stage-upload',
  saveUpload: 'zulip:save-upload',
  desktopSettings: 'zulip:desktop-settings',
  open: 'zulip:open',
  update: 'zulip:update',
  updateStatus: 'zulip:update-status',
} as const;
