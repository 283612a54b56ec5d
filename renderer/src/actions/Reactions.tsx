/**
 * A message's reactions under it: one chip per emoji with its count, the user's own highlighted
 * (pressed; a custom emoji as its image), who reacted in the tooltip and the accessible name; a click toggles the user's
 * reaction. Then a button adding another one (the emoji picker).
 */
import { createMemo, For, Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { ReactIcon } from '../kit/icons.js';
import { useUsers } from '../data/users.js';
import { ReactionButton } from './EmojiPicker.js';
import { groupReactions, reactionGlyph, reactionLabel, reactionTitle, reactionToggle, reactors, type ReactionGroup } from './reactions.js';
import { useRealmEmoji } from '../shared/realm-emoji.js';
import { useActions } from './store.js';

export function Reactions(props: { message: LocalMessage }) {
  const users = useUsers();
  const actions = useActions();
  const own = () => users.state.ownUserId;
  const groups = createMemo(() => groupReactions(props.message.reactions, own()));
  const name = (id: number) => users.byId().get(id)?.full_name;
  // A custom emoji's image (loaded like uploads, cached for offline); others show their character.
  const realmEmoji = useRealmEmoji();
  const customSrc = (g: ReactionGroup) => {
    const e = g.reaction_type === 'realm_emoji' ? realmEmoji.byId(g.emoji_code) : undefined;
    return e && realmEmoji.imageSrc(e.source_url);
  };
  return (
    <Show when={groups().length > 0}>
      <div class="reactions" role="group" aria-label="Reactions">
        <For each={groups()}>
          {(g) => {
            const who = () => reactors(g.userIds, own(), name);
            return (
              <button
                type="button"
                class="reaction"
                classList={{ mine: g.mine }}
                aria-pressed={g.mine}
                aria-label={reactionLabel(g, who())}
                title={reactionTitle(g, who())}
                onClick={() => actions.react(props.message, reactionToggle(props.message.reactions, own(), g))}
              >
                <span class="reaction-emoji" aria-hidden="true">
                  <Show when={customSrc(g)} fallback={reactionGlyph(g)}>
                    {(src) => <img class="emoji-img" src={src()} alt="" />}
                  </Show>
                </span>
                <span class="reaction-count" aria-hidden="true">
                  {g.userIds.length}
                </span>
              </button>
            );
          }}
        </For>
        <ReactionButton message={props.message} ownUserId={own()} label="Add reaction" class="reaction reaction-add" onReact={(r) => actions.react(props.message, r)}>
          <ReactIcon />
        </ReactionButton>
      </div>
    </Show>
  );
}
