/**
 * A seeded outbox workload over many entities, with the state the server should hold once it has
 * drained: saved snippets (create / edit / delete, often create-then-edit or create-then-delete in
 * one burst), content edits and topic moves of many messages (one entity per message, so the two
 * kinds keep the user's order between them), topic visibility on many topics, user settings and
 * navigation views (add / edit / delete), stars and reactions toggled on the messages (as the UI
 * toggles them), scheduled messages (create / edit / delete, often back to back while queued),
 * the channel's personal settings (mute, pin, colour, notifications), deletions of messages of
 * their own (often after an edit of the same message still queued: the delete must wait for it),
 * and, when the fixtures hold a poll and a to-do list, votes toggled on the poll's options, strikes
 * of its tasks and new tasks (drawn from a random stream of their own, so the other intents stay as
 * they were for a given seed), and with `uploads` small generated files and messages naming one or
 * two of them (also their own random stream; they need the worker's outbox files).
 *
 * Some values are typed as a person would (padded or overlong topics, trailing whitespace in
 * contents, a title with a leading space): the intended state is what the server stores of them.
 *
 * Every value the workload writes is unique (it names its entity and a sequence number), so the
 * server's state and edit history say exactly which intent produced them: a duplicate or a
 * reordered request cannot hide. Shared by the fault workload test and the crash trials' worker.
 */
import { seededRandom, type Random } from '../../../sync/base/seams.js';
import type { RuntimeKind } from '../../../sync/outbox/kinds.js';
import { contentEditBaseOf } from '../../../sync/outbox/mutations/message-content-edit.js';
import { conversationKey, type MessageSendArgs } from '../../../sync/outbox/mutations/message-send.js';
import { uploadOf } from '../../../sync/outbox/mutations/upload-file.js';
import { nextOutboxRowId } from '../../../sync/db/queries/outbox.js';
import type { OutboxFiles } from '../../../sync/uploads/outbox-files.js';
import { storedEditContent, storedTopic } from '../../../sync/outbox/normalize.js';
import type { EnqueueResult, OutboxStore } from '../../../sync/outbox/store.js';

export interface FixtureMessage {
  readonly id: number;
  /** The raw Markdown and topic the message has before the workload (what the user first sees). */
  readonly content: string;
  readonly topic: string;
}

export interface WorkloadFixtures {
  /** Lowercase letters and digits, unique per run: every title, topic and fragment starts with it. */
  readonly prefix: string;
  /** Messages sent by the acting user (only the sender may edit content). */
  readonly messages: readonly FixtureMessage[];
  /** Messages sent by the acting user that the workload may edit and then deletes. */
  readonly doomed: readonly FixtureMessage[];
  /** A channel the acting user is subscribed to, for topic visibility and channel settings. */
  readonly streamId: number;
  /** UNIX seconds far enough ahead that nothing scheduled is delivered during the run. */
  readonly scheduleAt: number;
  /** A `/poll` with three options and a `/todo` with two tasks, for widget intents (none without). */
  readonly widgets?: { readonly poll: number; readonly todo: number };
}

export interface WorkloadOptions {
  readonly seed: number;
  readonly intents: number;
  readonly snippets: number;
  readonly topics: number;
  readonly views: number;
  readonly maxBurst: number;
  readonly moves: boolean;
  /** Messages sent with one or two files each, their uploads queued just before (none: 0). */
  readonly uploads?: number;
}

export type Intent =
  | { readonly t: 'snippet_create'; readonly handle: number; readonly title: string; readonly content: string }
  | { readonly t: 'snippet_edit'; readonly handle: number; readonly title?: string; readonly content: string }
  | { readonly t: 'snippet_delete'; readonly handle: number }
  | { readonly t: 'content_edit'; readonly messageId: number; readonly content: string; readonly seen: string }
  | { readonly t: 'move'; readonly messageId: number; readonly topic: string }
  | { readonly t: 'user_topic'; readonly streamId: number; readonly topic: string; readonly policy: 0 | 1 | 2 | 3 }
  | { readonly t: 'settings'; readonly values: Readonly<Record<string, string | boolean>> }
  | { readonly t: 'view_add'; readonly fragment: string; readonly name: string; readonly isPinned: boolean }
  | { readonly t: 'view_edit'; readonly fragment: string; readonly name?: string; readonly isPinned?: boolean }
  | { readonly t: 'view_delete'; readonly fragment: string }
  | { readonly t: 'star'; readonly messageId: number; readonly on: boolean }
  | { readonly t: 'reaction'; readonly messageId: number; readonly emoji: EmojiChoice; readonly on: boolean }
  | { readonly t: 'sched_create'; readonly handle: number; readonly content: string; readonly topic: string }
  | { readonly t: 'sched_edit'; readonly handle: number; readonly content: string }
  | { readonly t: 'sched_delete'; readonly handle: number }
  | { readonly t: 'sub'; readonly streamId: number; readonly property: string; readonly value: string | boolean }
  | { readonly t: 'delete'; readonly messageId: number }
  | { readonly t: 'widget'; readonly messageId: number; readonly event: WidgetEvent }
  | { readonly t: 'upload'; readonly handle: number; readonly name: string; readonly size: number }
  | { readonly t: 'send'; readonly topic: string; readonly content: string; readonly uploads: readonly { readonly handle: number; readonly name: string }[] };

/** A poll or to-do interaction as the workload makes them (the `send_submessage` command's event). */
export type WidgetEvent =
  | { readonly type: 'vote'; readonly key: string; readonly vote: 1 | -1 }
  | { readonly type: 'strike'; readonly key: string }
  | { readonly type: 'new_task'; readonly key: number; readonly task: string; readonly desc: string; readonly completed: false };

export const EMOJI_CHOICES = [
  { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji' },
  { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' },
  { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
] as const;
export type EmojiChoice = (typeof EMOJI_CHOICES)[number];
/** Scheduled messages' handles live beside the snippets' in one handle table, from here up. */
export const SCHEDULED_HANDLE_BASE = 100_000;
/** Uploads' handles, from here up. */
export const UPLOAD_HANDLE_BASE = 200_000;

/** A generated file's bytes: its name repeated to its size (each file's own). */
export const uploadBytes = (name: string, size: number): Buffer => Buffer.alloc(size, name);

/** After a burst: let requests fly a little (`some`), drain completely (`full`), or go on at once. */
export type Pause = 'none' | 'some' | 'full';
export interface Burst {
  readonly intents: readonly Intent[];
  readonly pause: Pause;
}

/** One change of a message, in the order the user made them. */
export type MessageOp = { readonly kind: 'edit'; readonly content: string } | { readonly kind: 'move'; readonly topic: string };

export interface Intended {
  /** Live snippets by title. */
  readonly snippets: Map<string, string>;
  readonly messages: Map<number, { content: string; topic: string; readonly ops: MessageOp[] }>;
  /** Topic (as written) -> final policy; 0 means no row. */
  readonly topics: Map<string, number>;
  readonly settings: Record<string, string | boolean>;
  readonly views: Map<string, { name: string; isPinned: boolean }>;
  /** Message id -> starred at the end (absent: never toggled). */
  readonly starred: Map<number, boolean>;
  /** `${message id} ${emoji name}` -> our reaction there at the end. */
  readonly reactions: Map<string, boolean>;
  /** Live scheduled messages: content tag (`${prefix}q${k}`) -> content. */
  readonly scheduled: Map<string, string>;
  /** The channel's personal settings: property -> last value chosen. */
  readonly subscription: Map<string, string | boolean>;
  /** Messages deleted by the workload (gone from the server at the end). */
  readonly deleted: Set<number>;
  /** Poll option key -> our vote there at the end; task key -> struck an odd number of times; tasks added. */
  readonly widgets: { readonly votes: Map<string, boolean>; readonly struck: Map<string, boolean>; readonly tasks: string[] };
  /** Messages sent with files, in order: topic, text and the names of their files. */
  readonly sends: Array<{ readonly topic: string; readonly content: string; readonly files: readonly string[] }>;
  /** Files uploaded: name -> size. */
  readonly files: Map<string, number>;
}

export interface Workload {
  readonly bursts: readonly Burst[];
  readonly intended: Intended;
  readonly count: number;
}

export const SETTING_CHOICES: Readonly<Record<string, readonly (string | boolean)[]>> = {
  enter_sends: [true, false],
  twenty_four_hour_time: [true, false],
  fluid_layout_width: [true, false],
  left_side_userlist: [true, false],
  starred_message_counts: [true, false],
  emojiset: ['google', 'twitter', 'text'],
};

/** The channel's personal settings the workload changes, and the values it picks from. */
export const SUBSCRIPTION_CHOICES: Readonly<Record<string, readonly (string | boolean)[]>> = {
  is_muted: [true, false],
  pin_to_top: [true, false],
  color: ['#76ce90', '#e4523d', '#c2c2c2'],
  desktop_notifications: [true, false],
  audible_notifications: [true, false],
};

/** Snippet titles carry their handle so a server row names the intent that made it. */
export const snippetHandleOf = (prefix: string, title: string): number | undefined => {
  const m = new RegExp(`^${prefix}s(\\d+)(\\.|$)`).exec(title);
  return m ? Number(m[1]) : undefined;
};

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

type Life = 'unborn' | 'alive' | 'deleted';

export function generateWorkload(fx: WorkloadFixtures, o: WorkloadOptions): Workload {
  const r = seededRandom(o.seed);
  const p = fx.prefix;
  const intended: Intended = { snippets: new Map(), messages: new Map(), topics: new Map(), settings: {}, views: new Map(), starred: new Map(), reactions: new Map(), scheduled: new Map(), subscription: new Map(), deleted: new Set(), widgets: { votes: new Map(), struck: new Map(), tasks: [] }, sends: [], files: new Map() };
  for (const m of fx.messages) intended.messages.set(m.id, { content: m.content, topic: m.topic, ops: [] });
  const snippet = Array.from({ length: o.snippets }, () => ({ life: 'unborn' as Life, title: '', content: '', n: 0 }));
  const view = Array.from({ length: o.views }, () => ({ life: 'unborn' as Life, name: '', isPinned: false, n: 0 }));
  const sched = Array.from({ length: Math.max(2, Math.floor(o.snippets / 2)) }, () => ({ life: 'unborn' as Life, content: '', n: 0 }));
  const doomed = new Map(fx.doomed.map((m) => [m.id, m.content]));
  let seq = 0;
  const out: Intent[] = [];

  const snippetOps = (): Intent[] => {
    const unborn = snippet.flatMap((s, i) => (s.life === 'unborn' ? [i] : []));
    const alive = snippet.flatMap((s, i) => (s.life === 'alive' ? [i] : []));
    if (unborn.length > 0 && (alive.length === 0 || r() < 0.35)) {
      const h = pick(r, unborn);
      const s = snippet[h]!;
      Object.assign(s, { life: 'alive', title: `${p}s${h}`, content: `${p}s${h} body 0` });
      // Some typed with stray whitespace: the server keeps them trimmed.
      const padded = r() < 0.25;
      const ops: Intent[] = [{ t: 'snippet_create', handle: h, title: padded ? ` ${s.title}` : s.title, content: padded ? `${s.content}\n` : s.content }];
      // Offline create-then-edit and create-then-delete, back to back so they meet while queued.
      const x = r();
      if (x < 0.3) ops.push(editSnippet(h));
      else if (x < 0.45) ops.push(deleteSnippet(h));
      return ops;
    }
    if (alive.length === 0) return [];
    const h = pick(r, alive);
    return [r() < 0.85 ? editSnippet(h) : deleteSnippet(h)];
  };
  const editSnippet = (h: number): Intent => {
    const s = snippet[h]!;
    s.n++;
    s.content = `${p}s${h} body ${s.n}`;
    if (r() < 0.25) {
      s.title = `${p}s${h}.t${s.n}`;
      return { t: 'snippet_edit', handle: h, title: s.title, content: s.content };
    }
    return { t: 'snippet_edit', handle: h, content: s.content };
  };
  const deleteSnippet = (h: number): Intent => {
    snippet[h]!.life = 'deleted';
    return { t: 'snippet_delete', handle: h };
  };

  // A message of the user's: edited (the edit stays queued behind nothing) or deleted for good.
  const doomedOp = (): Intent[] => {
    const id = pick(r, [...doomed.keys()]);
    seq++;
    if (r() < 0.55) {
      const seen = doomed.get(id)!;
      const typed = `${p}d${id} edit ${seq}`;
      doomed.set(id, storedEditContent(typed));
      return [{ t: 'content_edit', messageId: id, content: typed, seen }];
    }
    doomed.delete(id);
    intended.deleted.add(id);
    return [{ t: 'delete', messageId: id }];
  };

  const messageOp = (): Intent[] => {
    if (doomed.size > 0 && r() < 0.12) return doomedOp();
    const m = pick(r, fx.messages);
    const state = intended.messages.get(m.id)!;
    seq++;
    if (o.moves && r() < 0.15) {
      // Some as a user types them: padded, or past the realm's topic length (the server trims
      // and truncates; verification must compare what it stores).
      const y = r();
      const typed = y < 0.15 ? `  ${p}m${m.id} topic ${seq}  ` : y < 0.25 ? `${p}m${m.id} topic ${seq} ${'long '.repeat(14)}` : `${p}m${m.id} topic ${seq}`;
      state.topic = storedTopic(typed);
      state.ops.push({ kind: 'move', topic: state.topic });
      return [{ t: 'move', messageId: m.id, topic: typed }];
    }
    const seen = state.content;
    const typed = `${p}m${m.id} edit ${seq}${r() < 0.2 ? '  \n' : ''}`;
    state.content = storedEditContent(typed);
    state.ops.push({ kind: 'edit', content: state.content });
    return [{ t: 'content_edit', messageId: m.id, content: typed, seen }];
  };

  const viewOps = (): Intent[] => {
    const unborn = view.flatMap((v, i) => (v.life === 'unborn' ? [i] : []));
    const alive = view.flatMap((v, i) => (v.life === 'alive' ? [i] : []));
    const fragment = (k: number) => `narrow/channel/${fx.streamId}-${p}v${k}`;
    if (unborn.length > 0 && (alive.length === 0 || r() < 0.3)) {
      const k = pick(r, unborn);
      Object.assign(view[k]!, { life: 'alive', name: `${p} view ${k}`, isPinned: r() < 0.5 });
      return [{ t: 'view_add', fragment: fragment(k), name: view[k]!.name, isPinned: view[k]!.isPinned }];
    }
    if (alive.length === 0) return [];
    const k = pick(r, alive);
    const v = view[k]!;
    if (r() < 0.12) {
      v.life = 'deleted';
      return [{ t: 'view_delete', fragment: fragment(k) }];
    }
    v.n++;
    if (r() < 0.5) {
      v.name = `${p} view ${k}.${v.n}`;
      return [{ t: 'view_edit', fragment: fragment(k), name: v.name }];
    }
    v.isPinned = !v.isPinned;
    return [{ t: 'view_edit', fragment: fragment(k), isPinned: v.isPinned }];
  };

  const schedOps = (): Intent[] => {
    const unborn = sched.flatMap((q, i) => (q.life === 'unborn' ? [i] : []));
    const alive = sched.flatMap((q, i) => (q.life === 'alive' ? [i] : []));
    const edit = (k: number): Intent => {
      const q = sched[k]!;
      q.n++;
      q.content = `${p}q${k} v${q.n}`;
      return { t: 'sched_edit', handle: SCHEDULED_HANDLE_BASE + k, content: q.content };
    };
    const del = (k: number): Intent => {
      sched[k]!.life = 'deleted';
      return { t: 'sched_delete', handle: SCHEDULED_HANDLE_BASE + k };
    };
    if (unborn.length > 0 && (alive.length === 0 || r() < 0.4)) {
      const k = pick(r, unborn);
      Object.assign(sched[k]!, { life: 'alive', content: `${p}q${k} v0` });
      const ops: Intent[] = [{ t: 'sched_create', handle: SCHEDULED_HANDLE_BASE + k, content: sched[k]!.content, topic: `${p} plans` }];
      const y = r();
      if (y < 0.3) ops.push(edit(k));
      else if (y < 0.45) ops.push(del(k));
      return ops;
    }
    if (alive.length === 0) return [];
    const k = pick(r, alive);
    return [r() < 0.8 ? edit(k) : del(k)];
  };

  while (out.length < o.intents) {
    const x = r();
    let ops: Intent[];
    if (x >= 0.76) {
      const m = pick(r, fx.messages);
      if (x < 0.84) {
        const on = !(intended.starred.get(m.id) ?? false);
        intended.starred.set(m.id, on);
        ops = [{ t: 'star', messageId: m.id, on }];
      } else if (x < 0.92) {
        const emoji = pick(r, EMOJI_CHOICES);
        const key = `${m.id} ${emoji.emoji_name}`;
        const on = !(intended.reactions.get(key) ?? false);
        intended.reactions.set(key, on);
        ops = [{ t: 'reaction', messageId: m.id, emoji, on }];
      } else ops = schedOps();
    } else if (x < 0.15) ops = snippetOps();
    else if (x < 0.42) ops = messageOp();
    else if (x < 0.57) {
      const topic = `${p}t${Math.floor(r() * o.topics)}`;
      const policy = pick(r, [0, 1, 2, 3] as const);
      intended.topics.set(topic, policy);
      ops = [{ t: 'user_topic', streamId: fx.streamId, topic, policy }];
    } else if (x < 0.61) {
      const property = pick(r, Object.keys(SUBSCRIPTION_CHOICES));
      const value = pick(r, SUBSCRIPTION_CHOICES[property]!);
      intended.subscription.set(property, value);
      ops = [{ t: 'sub', streamId: fx.streamId, property, value }];
    } else if (x < 0.66) {
      const values: Record<string, string | boolean> = {};
      for (let i = 0, n = 1 + Math.floor(r() * 2); i < n; i++) {
        const key = pick(r, Object.keys(SETTING_CHOICES));
        values[key] = pick(r, SETTING_CHOICES[key]!);
      }
      Object.assign(intended.settings, values);
      ops = [{ t: 'settings', values }];
    } else ops = viewOps();
    out.push(...ops);
  }
  if (fx.widgets) spliceWidgetIntents(out, fx.widgets, intended.widgets, p, o.seed);
  if (o.uploads) spliceUploadIntents(out, intended, p, o.seed, o.uploads);
  for (const s of snippet) if (s.life === 'alive') intended.snippets.set(s.title, s.content);
  sched.forEach((q, k) => {
    if (q.life === 'alive') intended.scheduled.set(`${p}q${k}`, q.content);
  });
  view.forEach((v, k) => {
    if (v.life === 'alive') intended.views.set(`narrow/channel/${fx.streamId}-${p}v${k}`, { name: v.name, isPinned: v.isPinned });
  });

  const bursts: Burst[] = [];
  for (let i = 0; i < out.length; ) {
    const n = 1 + Math.floor(r() * o.maxBurst);
    const y = r();
    bursts.push({ intents: out.slice(i, i + n), pause: y < 0.45 ? 'none' : y < 0.8 ? 'some' : 'full' });
    i += n;
  }
  return { bursts, intended, count: out.length };
}

/**
 * One widget intent for every twenty others, at places of their own random stream: votes toggled as
 * the poll's buttons toggle them, strikes of the to-do list's two tasks, and new tasks (each named
 * once, so each must land exactly once).
 */
function spliceWidgetIntents(out: Intent[], w: NonNullable<WorkloadFixtures['widgets']>, intended: Intended['widgets'], p: string, seed: number): void {
  const r = seededRandom(seed * 7 + 3);
  const n = Math.max(3, Math.floor(out.length / 20));
  // Places in the order made (a toggle's intended state depends on the order of its toggles).
  const at = Array.from({ length: n }, () => Math.floor(r() * (out.length + 1))).sort((a, b) => a - b);
  for (let i = 0; i < n; i++) {
    const x = r();
    let it: Intent;
    if (x < 0.45) {
      const key = `canned,${Math.floor(r() * 3)}`;
      const on = !(intended.votes.get(key) ?? false);
      intended.votes.set(key, on);
      it = { t: 'widget', messageId: w.poll, event: { type: 'vote', key, vote: on ? 1 : -1 } };
    } else if (x < 0.75) {
      const key = `${Math.floor(r() * 2)},canned`;
      intended.struck.set(key, !(intended.struck.get(key) ?? false));
      it = { t: 'widget', messageId: w.todo, event: { type: 'strike', key } };
    } else {
      const task = `${p}w${intended.tasks.length}`;
      it = { t: 'widget', messageId: w.todo, event: { type: 'new_task', key: intended.tasks.length + 1, task, desc: '', completed: false } };
      intended.tasks.push(task);
    }
    out.splice(at[i]! + i, 0, it);
  }
}

/** Groups of one or two uploads and the message naming them, each at a random place of its own stream. */
function spliceUploadIntents(out: Intent[], intended: Intended, p: string, seed: number, n: number): void {
  const r = seededRandom(seed * 13 + 5);
  const at = Array.from({ length: n }, () => Math.floor(r() * (out.length + 1))).sort((a, b) => b - a);
  const groups: Intent[][] = [];
  for (let i = 0; i < n; i++) {
    const files = Array.from({ length: 1 + Math.floor(r() * 2) }, (_, j) => {
      const handle = UPLOAD_HANDLE_BASE + i * 2 + j;
      const name = `${p}u${i}-${j}.txt`;
      const size = 64 + Math.floor(r() * 4_000);
      intended.files.set(name, size);
      return { t: 'upload' as const, handle, name, size };
    });
    const send = { t: 'send' as const, topic: `${p} files ${i % 2}`, content: `${p}f${i} see the files`, uploads: files.map((f) => ({ handle: f.handle, name: f.name })) };
    intended.sends.push({ topic: send.topic, content: send.content, files: files.map((f) => f.name) });
    groups.push([...files, send]);
  }
  // From the last place back, so earlier places stay where they were; groups keep their order.
  at.forEach((k, i) => out.splice(k, 0, ...groups[n - 1 - i]!));
}

/**
 * The `known` base of a widget intent, as the engine counts it on the cached message: the user's
 * submessages with this content, landed or still pending (rows done or live; a cancelled row is
 * discarded and never lands).
 */
function knownSubmessages(store: OutboxStore, messageId: number, content: string): number {
  return store
    .all()
    .filter((r) => r.kind === 'send_submessage' && r.state !== 'discarded' && argsOf(r.args).message_id === messageId && argsOf(r.args).content === content).length;
}
const argsOf = (a: unknown): { message_id?: unknown; content?: unknown } => (typeof a === 'object' && a !== null ? a : {});

/** Where the temporary ids of the workload's snippets are kept (a Map, or a durable table). */
export interface Handles {
  get(handle: number): string | undefined;
  set(handle: number, tmpId: string): void;
}

function kind(store: OutboxStore, name: string): RuntimeKind {
  const k = store.kinds.get(name, 1);
  if (!k) throw new Error(`kind ${name} is not registered`);
  return k;
}

/** Enqueue one intent as the UI would (the caller wraps it in the user action's transaction). */
export function enqueueIntent(store: OutboxStore, handles: Handles, it: Intent, nowMs: number, fx: Pick<WorkloadFixtures, 'streamId' | 'scheduleAt'>, files?: OutboxFiles): EnqueueResult {
  const tmpOf = (h: number): string => {
    const tmp = handles.get(h);
    if (tmp === undefined) throw new Error(`handle ${h} was never created`);
    return tmp;
  };
  switch (it.t) {
    case 'snippet_create': {
      const tmp = store.newTempId();
      handles.set(it.handle, tmp);
      return store.enqueue(kind(store, 'create_saved_snippet'), { tmp_id: tmp, title: it.title, content: it.content }, { enqueued_at: Math.floor(nowMs / 1000) });
    }
    case 'snippet_edit':
      return store.enqueue(kind(store, 'edit_saved_snippet'), { saved_snippet_id: tmpOf(it.handle), title: it.title, content: it.content }, null);
    case 'snippet_delete':
      return store.enqueue(kind(store, 'delete_saved_snippet'), { saved_snippet_id: tmpOf(it.handle) }, null);
    case 'content_edit':
      return store.enqueue(kind(store, 'update_message_content'), { message_id: it.messageId, content: it.content }, contentEditBaseOf(it.seen));
    case 'move': {
      const args = { message_id: it.messageId, topic: it.topic, propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false };
      return store.enqueue(kind(store, 'update_message_move'), args, null);
    }
    case 'user_topic':
      return store.enqueue(kind(store, 'update_user_topic'), { stream_id: it.streamId, topic: it.topic, visibility_policy: it.policy }, null);
    case 'settings':
      return store.enqueue(kind(store, 'update_settings'), it.values, null);
    case 'view_add':
      return store.enqueue(kind(store, 'add_navigation_view'), { fragment: it.fragment, is_pinned: it.isPinned, name: it.name }, null);
    case 'view_edit':
      return store.enqueue(kind(store, 'edit_navigation_view'), { fragment: it.fragment, is_pinned: it.isPinned, name: it.name }, null);
    case 'view_delete':
      return store.enqueue(kind(store, 'remove_navigation_view'), { fragment: it.fragment }, null);
    case 'star':
      return store.enqueue(kind(store, 'update_message_flags'), { messages: [it.messageId], op: it.on ? 'add' : 'remove', flag: 'starred' }, null);
    case 'reaction':
      return store.enqueue(kind(store, 'add_or_remove_reaction'), { message_id: it.messageId, op: it.on ? 'add' : 'remove', ...it.emoji }, null);
    case 'sched_create': {
      const tmp = store.newTempId();
      handles.set(it.handle, tmp);
      const args = { tmp_id: tmp, recipient: { type: 'channel', to: fx.streamId, topic: it.topic }, content: it.content, scheduled_delivery_timestamp: fx.scheduleAt };
      return store.enqueue(kind(store, 'create_scheduled_message'), args, null);
    }
    case 'sched_edit':
      return store.enqueue(kind(store, 'update_scheduled_message'), { scheduled_message_id: tmpOf(it.handle), content: it.content }, null);
    case 'sched_delete':
      return store.enqueue(kind(store, 'delete_scheduled_message'), { scheduled_message_id: tmpOf(it.handle) }, null);
    case 'sub':
      return store.enqueue(kind(store, 'update_subscription_settings'), { stream_id: it.streamId, property: it.property, value: it.value }, null);
    case 'delete':
      return store.enqueue(kind(store, 'delete_message'), { message_id: it.messageId }, null);
    case 'widget': {
      const content = JSON.stringify(it.event);
      const known = knownSubmessages(store, it.messageId, content);
      const args = { message_id: it.messageId, msg_type: 'widget', content, local_id: -1 - store.all().length };
      return store.enqueue(kind(store, 'send_submessage'), args, { known });
    }
    case 'upload': {
      if (!files) throw new Error('uploads need the outbox files');
      // The copy first, durably (a kill before the commit leaves a copy the sweep at start removes).
      const file = files.stage(uploadBytes(it.name, it.size));
      const tmp = store.newTempId();
      handles.set(it.handle, tmp);
      return store.enqueue(kind(store, 'upload_file'), { upload: tmp, file, filename: it.name, mime_type: 'text/plain', size: it.size }, { enqueued_at: Math.floor(nowMs / 1000) });
    }
    case 'send': {
      // As the session's send: the uploads still live join the conversation, ahead of the message.
      const to = { type: 'channel' as const, stream_id: fx.streamId, topic: it.topic };
      const uploads = it.uploads.map((u) => ({ upload: tmpOf(u.handle), name: u.name }));
      for (const u of uploads) {
        const up = uploadOf(store.db, u.upload);
        if (up) store.repoint(up.id, { ...up.args, entity: conversationKey(to) });
      }
      const args: MessageSendArgs = { local_id: String(nextOutboxRowId(store.db)), to, content: it.content, uploads };
      return store.enqueue(kind(store, 'send_message'), args, { enqueued_at: Math.floor(nowMs / 1000) });
    }
  }
}
