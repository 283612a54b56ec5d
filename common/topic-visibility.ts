/**
 * Topic visibility as Zulip applies it: a topic is muted when muted itself, or when its channel is
 * muted and the topic is not unmuted or followed. Muted topics are dimmed in the sidebar, left out
 * of Recent conversations, and their unread messages are not counted in their channel's count
 * (Zulip web's `num_unread_for_stream` unmuted count). Shared by the engine (the channels' counts)
 * and the renderer.
 */

/** `visibility_policy` values: 0 none, 1 muted, 2 unmuted, 3 followed. */
export const VISIBILITY = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export function isTopicMuted(channel: { readonly is_muted: boolean }, topic: { readonly visibility_policy: number }): boolean {
  if (topic.visibility_policy === VISIBILITY.muted) return true;
  return channel.is_muted && topic.visibility_policy !== VISIBILITY.unmuted && topic.visibility_policy !== VISIBILITY.followed;
}
