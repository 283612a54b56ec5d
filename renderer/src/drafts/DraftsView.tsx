/**
 * `#drafts` (key d), as Zulip web's drafts overlay: every draft the engine keeps (drafts are local,
 * so offline too), newest first, each with where it goes, when it was last edited and its text
 * (rendered on this device, as the composer's preview). Edit opens its conversation with the
 * composer holding the draft and the focus in it (a new DM with nobody picked yet: a new-DM
 * composer over the inbox); Delete asks first, then removes it from the engine.
 */
import { createMemo, createSignal, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { ConfirmDialog } from '../kit/ConfirmDialog.js';
import { EmptyState } from '../kit/EmptyState.js';
import { ListView } from '../kit/ListView.js';
import { formatFullTime } from '../kit/format.js';
import { useNow } from '../kit/now.js';
import { MessageContent } from '../shared/MessageContent.js';
import { useCompose } from '../data/compose.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import type { DraftNames } from '../data/drafts.js';
import { useRouter } from '../router/router.js';
import { renderPreview } from '../compose/preview.js';
import { formatRecentTime } from '../home/recent-time.js';
import { userTimeZone } from '../scheduled/schedule-time.js';
import type { DraftView } from '../../../sync/protocol/commands.js';
import { draftOpening, draftWhere, newestFirst } from './drafts-list.js';
import './drafts.css';

export function DraftsView() {
  const compose = useCompose();
  const channels = useChannels();
  const users = useUsers();
  const settings = useSettings();
  const router = useRouter();
  const [deleting, setDeleting] = createSignal<DraftView | null>(null);
  const list = createMemo(() => newestFirst(compose.drafts.list));
  const names: DraftNames = {
    get selfId() {
      return users.state.ownUserId;
    },
    channelName: (id) => channels.byId(id)?.name,
    userName: (id) => users.byId().get(id)?.full_name,
  };
  const where = (d: DraftView) => draftWhere(d.to, names);
  const zone = () => userTimeZone(settings.raw()?.timezone);
  const hours = () => settings.display().twentyFourHour;
  const now = useNow();

  const edit = (d: DraftView) => {
    const o = draftOpening(d.to, names);
    compose.focusNextOpened();
    // A composer opened on purpose before (c, x) gives way to the conversation's own.
    if (o.newDm) compose.openNewDm([]);
    else compose.close();
    router.navigate(o.hash);
  };

  return (
    <section class="narrow screen drafts-view" aria-label="Drafts">
      <header class="screen-header">
        <h1 class="screen-title">Drafts</h1>
        <p class="hint">Kept on this device as you type. Edit one to go on writing it.</p>
      </header>
      <ListView
        items={list()}
        loaded={compose.drafts.loaded}
        loading={<EmptyState title="Loading…" role="status" />}
        empty={<EmptyState title="No drafts.">What you type in a composer and do not send is kept here.</EmptyState>}
        class="screen-list drafts-list"
        label="Drafts list"
      >
        {(d) => (
          <li class="screen-card draft-item" data-draft-key={d.key} aria-label={`Draft: ${where(d)}`}>
            <div class="card-meta">
              <span class="card-where">{where(d)}</span>
              <time class="card-time" datetime={new Date(d.updated_at).toISOString()} title={formatFullTime(d.updated_at / 1000, undefined, zone(), hours())}>
                {formatRecentTime(d.updated_at / 1000, now(), zone(), hours())}
              </time>
            </div>
            <div class="card-body draft-text">
              <MessageContent html={renderPreview(d.content)} />
            </div>
            <div class="card-actions">
              <Button size="small" aria-label={`Edit draft: ${where(d)}`} onClick={() => edit(d)}>
                Edit
              </Button>
              <Button size="small" variant="quiet" aria-label={`Delete draft: ${where(d)}`} onClick={() => setDeleting(d)}>
                Delete
              </Button>
            </div>
          </li>
        )}
      </ListView>
      <Show when={deleting()}>
        {(d) => (
          <ConfirmDialog
            title="Delete draft"
            question={`Delete this draft (${where(d())})? It cannot be brought back.`}
            action="Delete"
            danger
            done="Draft deleted."
            run={() => compose.deleteDraft(d().key)}
            onClose={() => setDeleting(null)}
          >
            <div class="card-body draft-text">
              <MessageContent html={renderPreview(d().content)} />
            </div>
          </ConfirmDialog>
        )}
      </Show>
    </section>
  );
}
