/**
 * The end-of-run checks of a drained workload (workload.ts) against the reference server, shared by
 * the fault workload test and the crash trials. Each returns a list of problems (empty: all good)
 * so a failing run names every broken intent at once instead of stopping at the first.
 *
 *   nothing stuck   every row is done, or discarded because a later intent cancelled it
 *   exactly once    the server created each snippet and view once per landed create row (an audit
 *                   trigger on the server's tables counts inserts, deleted rows included); a
 *                   message's edit history holds one snapshot per landed edit or move row
 *   order kept      a message's history walks its edits and moves in the order the user made them
 *   state           snippets, message contents and topics, topic policies, settings, views, stars,
 *                   reactions, scheduled messages and the channel's personal settings equal the
 *                   intended state; deleted messages are gone, the others kept; none was created
 *   widgets         the user's submessages on the poll and the to-do list: as many of each content
 *                   as landed rows carry it (0 lost, 0 duplicated), every new task once, each option's
 *                   vote and each task's strikes as intended
 *   uploads         every file uploaded once (`GET /attachments`, by name and size), every message
 *                   naming files sent once, with its own files' links after its text in order
 */
import type { OutboxRow } from '../../../sync/outbox/store.js';
import type { TestServer } from '../../server/harness.js';
import { snippetHandleOf, type Intended, type WorkloadFixtures } from './workload.js';
import { attachmentUrl } from '../../../sync/outbox/mutations/upload-file.js';
import { contentWithUploads } from '../../../sync/outbox/mutations/message-send.js';

/**
 * Temporary triggers on the server's connection: count inserts into its snippet and view tables,
 * and keep a deleted snippet's id taken (a row of no user) so it is never handed out again.
 *
 * Why the second: Zulip's ids come from Postgres sequences and are never reused, and the client
 * relies on it (a lost DELETE is verified by looking the id up). The reference server's
 * `INTEGER PRIMARY KEY` reuses the highest id after a delete, so a lost delete verified after
 * another snippet took the id reads "not applied" and the resend deletes the newer snippet (the
 * crash trials found this). Until the server's schema says AUTOINCREMENT, the test emulates it.
 */
export function installAudit(t: TestServer): void {
  t.server.state.db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS snippet_ids_never_reused AFTER DELETE ON main.saved_snippets WHEN old.user_id != 0
      BEGIN INSERT INTO saved_snippets (id, user_id, title, content, date_created) VALUES (old.id, 0, '', '', 0); END;
    CREATE TEMP TABLE IF NOT EXISTS audit_snippet_inserts (title TEXT NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS audit_view_inserts (fragment TEXT NOT NULL);
    CREATE TEMP TRIGGER IF NOT EXISTS audit_snippets AFTER INSERT ON main.saved_snippets
      BEGIN INSERT INTO audit_snippet_inserts (title) VALUES (new.title); END;
    CREATE TEMP TRIGGER IF NOT EXISTS audit_views AFTER INSERT ON main.navigation_views
      BEGIN INSERT INTO audit_view_inserts (fragment) VALUES (new.fragment); END;
    CREATE TEMP TABLE IF NOT EXISTS audit_scheduled_inserts (content TEXT NOT NULL);
    CREATE TEMP TRIGGER IF NOT EXISTS audit_scheduled AFTER INSERT ON main.scheduled_messages
      BEGIN INSERT INTO audit_scheduled_inserts (content) VALUES (new.content); END;
  `);
}

const strings = (t: TestServer, sql: string, ...params: unknown[]): string[] =>
  t.server.state.db
    .prepare(sql)
    .pluck()
    .all(...params)
    .filter((x): x is string => typeof x === 'string');

function tally<T>(xs: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

const argsField = (r: OutboxRow, k: string): unknown => (typeof r.args === 'object' && r.args !== null ? Reflect.get(r.args, k) : undefined);

/** Rows neither done nor discarded by a cancelling intent. */
export function stuckRows(rows: readonly OutboxRow[]): string[] {
  const problems: string[] = [];
  for (const r of rows) {
    if (r.state === 'done') continue;
    const last = r.history.at(-1);
    const cancelled = r.state === 'discarded' && JSON.stringify(last).includes('cancelled by a later intent');
    if (!cancelled) problems.push(`row ${r.id} (${r.kind} ${r.entityKey}) ended ${r.state}: ${JSON.stringify(r.lastError)}`);
  }
  return problems;
}

interface Snapshot {
  content: string;
  topic: string;
}

export async function checkServer(t: TestServer, who: string, fx: WorkloadFixtures, intended: Intended, rows: readonly OutboxRow[]): Promise<string[]> {
  const problems: string[] = [];
  const as = t.as(who);
  const p = fx.prefix;
  const expectEq = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };

  // Snippets: the intended set, no duplicates, one server insert per landed create.
  const snippets = ((await as.get('/saved_snippets')).json.saved_snippets as Array<{ title: string; content: string }>).filter((s) => snippetHandleOf(p, s.title) !== undefined);
  expectEq('snippet titles (sorted, duplicates kept)', snippets.map((s) => s.title).sort(), [...intended.snippets.keys()].sort());
  for (const s of snippets) expectEq(`snippet ${s.title}`, s.content, intended.snippets.get(s.title));
  const inserted = tally(strings(t, 'SELECT title FROM temp.audit_snippet_inserts').map((title) => snippetHandleOf(p, title)).filter((h) => h !== undefined));
  // -1: a landed create whose title names no handle of this workload (never expected).
  const landed = tally(rows.filter((r) => r.kind === 'create_saved_snippet' && r.state === 'done').map((r) => snippetHandleOf(p, String(argsField(r, 'title')).trim()) ?? -1));
  for (const h of new Set([...inserted.keys(), ...landed.keys()])) expectEq(`server creates of snippet handle ${h}`, inserted.get(h) ?? 0, landed.get(h) ?? 0);
  for (const [h, n] of landed) if (n !== 1) problems.push(`snippet handle ${h} has ${n} landed create rows`);

  // Messages: final content and topic; the edit history walks our intents in order, once each.
  for (const [id, want] of intended.messages) {
    const m = (await as.get(`/messages/${id}`, { apply_markdown: false })).json.message as { content: string; subject: string };
    expectEq(`message ${id} content`, m.content, want.content);
    expectEq(`message ${id} topic`, m.subject, want.topic);
    const hist = (await as.get(`/messages/${id}/history`)).json.message_history as Snapshot[];
    let at = -1;
    let edits = 0;
    let moves = 0;
    for (let k = 1; k < hist.length; k++) {
      const [prev, cur] = [hist[k - 1]!, hist[k]!];
      const changes: Array<{ kind: 'edit' | 'move'; value: string }> = [];
      if (cur.content !== prev.content) changes.push({ kind: 'edit', value: cur.content });
      if (cur.topic !== prev.topic) changes.push({ kind: 'move', value: cur.topic });
      if (changes.length === 0) problems.push(`message ${id}: history snapshot ${k} changes nothing (a repeated request?)`);
      for (const c of changes) {
        const idx = want.ops.findIndex((op, i) => i > at && op.kind === c.kind && (op.kind === 'edit' ? op.content : op.topic) === c.value);
        if (idx < 0) problems.push(`message ${id}: history snapshot ${k} (${c.kind} ${JSON.stringify(c.value)}) is not a later intent: repeated or out of order`);
        else at = idx;
        if (c.kind === 'edit') edits++;
        else moves++;
      }
    }
    const ofMessage = rows.filter((r) => r.state === 'done' && argsField(r, 'message_id') === id);
    expectEq(`message ${id}: content snapshots vs landed edit rows`, edits, ofMessage.filter((r) => r.kind === 'update_message_content').length);
    expectEq(`message ${id}: topic snapshots vs move intents`, moves, want.ops.filter((o) => o.kind === 'move').length);
  }
  const maxFixture = Math.max(...fx.messages.map((m) => m.id), ...fx.doomed.map((m) => m.id));
  const newMessages = t.server.state.db.prepare('SELECT COUNT(*) FROM messages WHERE id > ?').pluck().get(maxFixture);
  expectEq('messages created during the workload', newMessages, intended.sends.length);
  if (intended.files.size > 0) await checkUploads(t, who, p, intended, expectEq);

  // Topic visibility and settings: the last value the user chose.
  const state = (await as.post('/register', { fetch_event_types: ['user_topic', 'user_settings'], client_capabilities: { user_settings_object: true } })).json;
  const userTopics = state.user_topics as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>;
  for (const [topic, policy] of intended.topics) {
    const got = userTopics.find((u) => u.stream_id === fx.streamId && u.topic_name.toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
    expectEq(`policy of topic ${topic}`, got, policy);
  }
  const settings = state.user_settings as Record<string, unknown>;
  for (const [k, v] of Object.entries(intended.settings)) expectEq(`setting ${k}`, settings[k], v);
  if (typeof state.queue_id === 'string') await as.delete('/events', { queue_id: state.queue_id });

  // Navigation views: the intended set; one insert per landed add.
  const mine = (f: string) => f.includes(`-${p}v`);
  const views = ((await as.get('/navigation_views')).json.navigation_views as Array<{ fragment: string; name: string | null; is_pinned: boolean }>).filter((v) => mine(v.fragment));
  expectEq('view fragments', views.map((v) => v.fragment).sort(), [...intended.views.keys()].sort());
  for (const v of views) expectEq(`view ${v.fragment}`, { name: v.name, isPinned: v.is_pinned }, intended.views.get(v.fragment));
  const viewInserts = tally(strings(t, 'SELECT fragment FROM temp.audit_view_inserts').filter(mine));
  const viewAdds = tally(rows.filter((r) => r.kind === 'add_navigation_view' && r.state === 'done').map((r) => String(argsField(r, 'fragment'))));
  for (const f of new Set([...viewInserts.keys(), ...viewAdds.keys()])) expectEq(`server inserts of view ${f}`, viewInserts.get(f) ?? 0, viewAdds.get(f) ?? 0);

  // Stars and reactions: the last toggle wins (the server keeps one reaction per user and emoji).
  const self = (await as.get('/users/me')).json.user_id as number;
  for (const id of new Set([...intended.starred.keys(), ...[...intended.reactions.keys()].map((k) => Number(k.split(' ')[0]))])) {
    const m = (await as.get(`/messages/${id}`)).json.message as { flags: string[]; reactions: Array<{ emoji_name: string; user_id: number }> };
    const star = intended.starred.get(id);
    if (star !== undefined) expectEq(`message ${id} starred`, m.flags.includes('starred'), star);
    for (const [key, on] of intended.reactions) {
      if (Number(key.split(' ')[0]) !== id) continue;
      const name = key.slice(key.indexOf(' ') + 1);
      expectEq(`message ${id} reaction ${name}`, m.reactions.filter((x) => x.user_id === self && x.emoji_name === name).length, on ? 1 : 0);
    }
  }

  // Scheduled messages: the intended set; one server insert per landed create.
  const tagOf = (content: string) => content.split(' ')[0] ?? '';
  const mineQ = (content: string) => new RegExp(`^${p}q\\d+ `).test(content);
  const sched = ((await as.get('/scheduled_messages')).json.scheduled_messages as Array<{ content: string }>).filter((m) => mineQ(m.content));
  expectEq('scheduled tags (sorted, duplicates kept)', sched.map((m) => tagOf(m.content)).sort(), [...intended.scheduled.keys()].sort());
  for (const m of sched) expectEq(`scheduled ${tagOf(m.content)}`, m.content, intended.scheduled.get(tagOf(m.content)));
  const schedInserts = tally(strings(t, 'SELECT content FROM temp.audit_scheduled_inserts').filter(mineQ).map(tagOf));
  const schedCreates = tally(rows.filter((r) => r.kind === 'create_scheduled_message' && r.state === 'done').map((r) => tagOf(String(argsField(r, 'content')))));
  for (const tag of new Set([...schedInserts.keys(), ...schedCreates.keys()])) expectEq(`server creates of scheduled ${tag}`, schedInserts.get(tag) ?? 0, schedCreates.get(tag) ?? 0);

  // Deletions: each deleted message is gone; the messages never deleted are still there.
  for (const m of fx.doomed) {
    const r = await as.get(`/messages/${m.id}`);
    expectEq(`message ${m.id} exists`, r.status === 200, !intended.deleted.has(m.id));
  }

  // The channel's personal settings: the last value chosen for each.
  const subs = (await as.get('/users/me/subscriptions')).json.subscriptions as Array<Record<string, unknown>>;
  const sub = subs.find((s) => s['stream_id'] === fx.streamId);
  for (const [property, value] of intended.subscription) expectEq(`channel setting ${property}`, sub?.[property], value);

  if (fx.widgets) await checkWidgets(t, who, self, fx.widgets, intended, rows, expectEq);
  return problems;
}

/** Each file once, by name and size; each message naming files once, with its files' links. */
async function checkUploads(t: TestServer, who: string, p: string, intended: Intended, expectEq: (what: string, got: unknown, want: unknown) => void): Promise<void> {
  const as = t.as(who);
  const all = ((await as.get('/attachments')).json.attachments as Array<{ name: string; size: number; path_id: string }>).filter((a) => a.name.startsWith(`${p}u`));
  expectEq('files uploaded (name and size, sorted, duplicates kept)', all.map((a) => [a.name, a.size]).sort(), [...intended.files].sort());
  const url = new Map(all.map((a) => [a.name, attachmentUrl(a.path_id)]));
  for (const topic of new Set(intended.sends.map((x) => x.topic))) {
    const r = await as.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, apply_markdown: false, narrow: [{ operator: 'topic', operand: topic }] });
    const got = (r.json.messages as Array<{ id: number; content: string }>).sort((a, b) => a.id - b.id).map((m) => m.content);
    const want = intended.sends.filter((x) => x.topic === topic).map((x) => contentWithUploads(x.content, x.files.map((name) => ({ name, url: url.get(name) ?? '(not uploaded)' }))));
    expectEq(`messages in ${topic}`, got, want);
  }
}

/** The poll's and the to-do list's submessages against the landed rows and the intended state. */
async function checkWidgets(
  t: TestServer,
  who: string,
  self: number,
  w: NonNullable<WorkloadFixtures['widgets']>,
  intended: Intended,
  rows: readonly OutboxRow[],
  expectEq: (what: string, got: unknown, want: unknown) => void,
): Promise<void> {
  const mine = async (id: number) =>
    ((await t.as(who).get(`/messages/${id}`)).json.message as { submessages: Array<{ sender_id: number; content: string }> }).submessages
      .slice(1) // the widget itself, from the sender
      .filter((s) => s.sender_id === self)
      .map((s) => s.content);
  for (const id of [w.poll, w.todo]) {
    const onServer = tally(await mine(id));
    const landed = tally(rows.filter((r) => r.kind === 'send_submessage' && r.state === 'done' && argsField(r, 'message_id') === id).map((r) => String(argsField(r, 'content'))));
    for (const c of new Set([...onServer.keys(), ...landed.keys()])) expectEq(`message ${id}: submessages ${c}`, onServer.get(c) ?? 0, landed.get(c) ?? 0);
  }
  const events = async (id: number) => (await mine(id)).map((c) => JSON.parse(c) as { type: string; key: string | number; vote?: number; task?: string });
  const poll = await events(w.poll);
  for (const [key, on] of intended.widgets.votes) expectEq(`poll vote ${key}`, poll.filter((e) => e.type === 'vote' && e.key === key).at(-1)?.vote === 1, on);
  const todo = await events(w.todo);
  for (const [key, odd] of intended.widgets.struck) expectEq(`task ${key} struck`, todo.filter((e) => e.type === 'strike' && e.key === key).length % 2 === 1, odd);
  expectEq('new tasks', todo.filter((e) => e.type === 'new_task').map((e) => e.task), intended.widgets.tasks);
}
