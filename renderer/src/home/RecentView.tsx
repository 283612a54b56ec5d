/**
 * Recent conversations (#recent), as Zulip web has them: topics and direct-message conversations
 * by newest activity, with unread counts, the channel or the participants, the time of the last
 * message where the device holds it (relative today, else in the user's time zone and 12/24-hour
 * setting: recent-time.ts), and filters (All, Unread,
 * Direct messages). Rows are links; arrow keys move between them. Under it, the composer's "New
 * topic" and "New direct message" buttons (and keys c / x), as in Zulip web.
 */
import { ComposeArea } from '../compose/ComposeArea.js';
import { useNow } from '../kit/now.js';
import { afterPaint } from '../kit/after-paint.js';
import { createMemo, createSignal, For, Show } from 'solid-js';
import { EmptyState } from '../kit/EmptyState.js';
import { formatFullTime, topicLabel } from '../kit/format.js';
import { hashOfTarget } from '../data/target.js';
import { useSettings } from '../data/settings.js';
import { useChannels } from '../data/channels.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { useUsers } from '../data/users.js';
import { recentOf, type RecentFilter } from './home-reducer.js';
import { userTimeZone } from '../scheduled/schedule-time.js';
import { formatRecentTime } from './recent-time.js';
import { onRowKeys } from './row-keys.js';
import { useHome } from '../data/home.js';
import { createKeyedStore } from '../kit/keyed-store.js';
import './home.css';

const FILTERS: { value: RecentFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'dms', label: 'Direct messages' },
];

/** Rows rendered before "Show more"; in the view's first frame only a screenful (the rest once it is painted). */
const PAGE = 100;
const FIRST_FRAME_ROWS = 30;
/** The latest the rest of the rows come, should frames not (kit/after-paint.ts). */
const REST_LATEST_MS = 250;

export function RecentView() {
  const home = useHome();
  const channels = useChannels();
  const users = useUsers();
  const settings = useSettings();
  const [filter, setFilter] = createSignal<RecentFilter>('all');
  const [shown, setShown] = createSignal(PAGE);
  const [painted, setPainted] = createSignal(false);
  afterPaint(() => setPainted(true), REST_LATEST_MS);
  const rows = createMemo(() => recentOf(channels.plain(), home.plainDms(), filter()));
  // The rows shown keep their DOM across changes (keyed by conversation): a new message re-sorts
  // them and updates a count or a time, not every row.
  const shownRows = createKeyedStore(createMemo(() => ({ list: rows().slice(0, painted() ? shown() : FIRST_FRAME_ROWS) })));
  const userName = (id: number) => users.byId().get(id)?.full_name;
  const hour = () => settings.display().twentyFourHour;
  const zone = () => userTimeZone(settings.raw()?.timezone);
  // Relative times ("5 minutes ago") move on while the view is open.
  const now = useNow();
  return (
    <section class="narrow home" aria-label="Recent conversations">
      <header class="narrow-header home-header">
        <h1 class="narrow-title">Recent conversations</h1>
        <div class="home-filters" role="group" aria-label="Show">
          <For each={FILTERS}>
            {(f) => (
              <button type="button" class="home-filter" aria-pressed={filter() === f.value} onClick={() => setFilter(f.value)}>
                {f.label}
              </button>
            )}
          </For>
        </div>
      </header>
      <div class="home-body">
        <Show when={channels.state.loaded && home.dmsLoaded()} fallback={<EmptyState title="Loading…" role="status" />}>
          <Show
            when={rows().length > 0}
            fallback={<EmptyState title={filter() === 'unread' ? 'No unread conversations' : filter() === 'dms' ? 'No direct messages yet' : 'No conversations yet'} role="status" />}
          >
            <ul class="recent-rows" aria-label="Conversations" onKeyDown={onRowKeys}>
              <For each={shownRows.list}>
                {(r) => (
                  <li class="recent-row" classList={{ 'has-unread': r.unread > 0 }}>
                    <Show
                      when={r.kind === 'topic' ? r : null}
                      fallback={
                        <Show when={r.kind === 'dm' ? r : null}>
                          {(d) => (
                            <>
                              <span class="recent-where">Direct message</span>
                              <a class="home-link recent-what" href={hashOfTarget(d().target, userName)}>
                                {d().names}
                              </a>
                            </>
                          )}
                        </Show>
                      }
                    >
                      {(t) => (
                        <>
                          <a class="recent-where" href={hashOfTarget({ kind: 'channel', channelId: t().channelId, channelName: t().channelName })} tabindex="-1">
                            <span class="swatch" aria-hidden="true" style={t().color ? { 'background-color': t().color ?? '' } : undefined} />
                            {t().channelName}
                          </a>
                          <a class="home-link recent-what" classList={{ 'empty-topic': t().topic === '' }} href={hashOfTarget({ kind: 'topic', channelId: t().channelId, channelName: t().channelName, topic: t().topic })}>
                            {topicLabel(t().topic)}
                          </a>
                        </>
                      )}
                    </Show>
                    <UnreadBadge count={r.unread} />
                    <span class="recent-time">
                      <Show when={r.timestamp}>
                        {(ts) => (
                          <time dateTime={new Date(ts() * 1000).toISOString()} title={formatFullTime(ts(), undefined, zone(), hour())}>
                            {formatRecentTime(ts(), now(), zone(), hour())}
                          </time>
                        )}
                      </Show>
                    </span>
                  </li>
                )}
              </For>
            </ul>
            <Show when={rows().length > shown()}>
              <button type="button" class="home-more" onClick={() => setShown(shown() + PAGE)}>
                Show more conversations
              </button>
            </Show>
          </Show>
        </Show>
      </div>
      <ComposeArea />
    </section>
  );
}
