/**
 * A seeded random scenario of actions by other clients, through plain HTTP (the test harness's
 * `t.as(...)`, not sync/api): sends (channel and direct), content edits, topic moves and channel
 * moves with each propagate_mode, resolve / unresolve, deletes, reactions, and hamlet's own
 * per-user state from "another device" (flags, topic preferences, snippets, settings). Same seed,
 * same actions; refused actions (time limits, permissions) are counted, not hidden.
 */
import { seededRandom } from '../../../sync/base/seams.js';
import type { HttpResult, TestServer } from '../../server/harness.js';

const CHANNELS: Record<string, readonly string[]> = {
  general: ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia'],
  Verona: ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia'],
  Denmark: ['desdemona', 'iago', 'hamlet', 'cordelia'],
  Scotland: ['iago', 'shiva', 'othello'],
};
export const TOPICS = ['castle', 'lunch', 'plans', 'Ghost', 'ghost', '', 'weather', 'rotten'] as const;
const WORDS = ['to', 'be', 'or', 'not', 'ophelia', 'skull', 'yorick', 'denmark', 'rotten', 'dagger', 'ghost', 'king', 'queen', 'poison', 'sword'];
const EMOJI = ['smile', 'heart', 'tada', 'octopus'];
const PEOPLE = new Set(['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia', 'polonius']);
const MODES = ['change_one', 'change_later', 'change_all'] as const;

export interface ScenarioStats {
  readonly byKind: Record<string, { ok: number; refused: number }>;
}

interface Known {
  id: number;
  sender: string;
  channel: string | null;
  topic: string;
}

export class Scenario {
  readonly random: () => number;
  private readonly known: Known[] = [];
  private readonly snippets: number[] = [];
  readonly stats: ScenarioStats = { byKind: {} };

  constructor(
    /** Replaced when the test restarts the server. */
    public t: TestServer,
    seed: number,
  ) {
    this.random = seededRandom(seed);
  }

  /** `t.as(who)`, retrying once when a kept-alive socket to a restarted server was closed. */
  as(who: string): ReturnType<TestServer['as']> {
    const c = this.t.as(who);
    const retry =
      <A extends unknown[]>(f: (...a: A) => Promise<HttpResult>) =>
      async (...a: A): Promise<HttpResult> => {
        try {
          return await f(...a);
        } catch (e) {
          if (!(e instanceof TypeError)) throw e;
          return f(...a);
        }
      };
    return { ...c, get: retry(c.get), post: retry(c.post), patch: retry(c.patch), delete: retry(c.delete) };
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)]!;
  }

  private words(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.pick(WORDS));
    const r = this.random();
    if (r < 0.1) out.push('@**King Hamlet**');
    else if (r < 0.15) out.push('@**all**');
    else if (r < 0.2) out.push('https://example.com/x');
    return out.join(' ');
  }

  /** Learn the messages that exist before the scenario (so edits and moves can touch them). */
  async learnExisting(): Promise<void> {
    const r = await this.as('iago').get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: [], allow_empty_topic_name: true });
    for (const m of r.json.messages as Array<{ id: number; sender_email: string; type: string; display_recipient: unknown; subject: string }>) {
      const channel = m.type === 'stream' && typeof m.display_recipient === 'string' && m.display_recipient in CHANNELS ? m.display_recipient : null;
      if (m.type === 'stream' && channel === null) continue;
      this.known.push({ id: m.id, sender: m.sender_email.split('@')[0]!, channel, topic: m.subject });
    }
  }

  private count(kind: string, r: HttpResult): void {
    const s = (this.stats.byKind[kind] ??= { ok: 0, refused: 0 });
    if (r.status === 200) s.ok++;
    else s.refused++;
  }

  private async refreshMessage(k: Known): Promise<void> {
    const r = await this.as('iago').get(`/messages/${k.id}`, { allow_empty_topic_name: true });
    if (r.status !== 200) {
      this.known.splice(this.known.indexOf(k), 1);
      return;
    }
    const m = r.json.message as { display_recipient: unknown; subject: string };
    k.topic = m.subject;
    if (k.channel !== null && typeof m.display_recipient === 'string') k.channel = m.display_recipient;
  }

  /** One random action. */
  async step(): Promise<void> {
    const r = this.random();
    const chan = this.known.filter((k) => k.channel !== null);
    if (r < 0.3 || this.known.length < 5) return this.send();
    if (r < 0.36) return this.sendDm();
    if (r < 0.46) {
      const k = this.pick(this.known);
      // Notices (Notification Bot) are not ours to edit: an admin's attempt is refused, and counted.
      const editor = PEOPLE.has(k.sender) ? k.sender : 'iago';
      const res = await this.as(editor).patch(`/messages/${k.id}`, { content: this.words(4) });
      return this.count('content edit', res);
    }
    if (r < 0.54 && chan.length) {
      const k = this.pick(chan);
      const topic = this.pick(TOPICS);
      const res = await this.as('iago').patch(`/messages/${k.id}`, { topic, propagate_mode: this.pick(MODES), send_notification_to_old_thread: false, send_notification_to_new_thread: this.random() < 0.3 });
      this.count('topic move', res);
      return this.refreshAll(k);
    }
    if (r < 0.6 && chan.length) {
      const k = this.pick(chan);
      // Into Scotland too: hamlet loses his rows there and hears nothing more about them.
      const to = this.pick(Object.keys(CHANNELS));
      const res = await this.as('iago').patch(`/messages/${k.id}`, { stream_id: this.channelId(to), propagate_mode: this.pick(MODES), send_notification_to_old_thread: false, send_notification_to_new_thread: false });
      this.count('channel move', res);
      return this.refreshAll(k);
    }
    if (r < 0.64 && chan.length) {
      const k = this.pick(chan);
      const resolved = k.topic.startsWith('✔ ');
      const topic = resolved ? k.topic.slice(2) : `✔ ${k.topic}`;
      const res = await this.as('iago').patch(`/messages/${k.id}`, { topic, propagate_mode: 'change_all' });
      this.count(resolved ? 'unresolve' : 'resolve', res);
      return this.refreshAll(k);
    }
    if (r < 0.68) {
      const k = this.pick(this.known);
      const res = await this.as('iago').delete(`/messages/${k.id}`);
      this.count('delete', res);
      if (res.status === 200) this.known.splice(this.known.indexOf(k), 1);
      return;
    }
    if (r < 0.78) {
      // Scotland's history too: flagging it gives hamlet a historical per-user row.
      const ids = [this.pick(this.known).id, this.pick(this.known).id];
      const res = await this.as('hamlet').post('/messages/flags', { messages: ids, op: this.random() < 0.5 ? 'add' : 'remove', flag: this.random() < 0.5 ? 'read' : 'starred' });
      return this.count('flags', res);
    }
    if (r < 0.88) {
      const k = this.pick(this.known);
      const who = k.channel ? this.pick(CHANNELS[k.channel]!) : PEOPLE.has(k.sender) ? k.sender : 'hamlet';
      const emoji = this.pick(EMOJI);
      const add = this.random() < 0.6;
      const res = add ? await this.as(who).post(`/messages/${k.id}/reactions`, { emoji_name: emoji }) : await this.as(who).delete(`/messages/${k.id}/reactions`, { emoji_name: emoji });
      return this.count('reaction', res);
    }
    if (r < 0.92) {
      const ch = this.pick(['general', 'Verona', 'Denmark']);
      const res = await this.as('hamlet').post('/user_topics', { stream_id: this.channelId(ch), topic: this.pick(TOPICS) || 'castle', visibility_policy: Math.floor(this.random() * 4) });
      return this.count('topic preference', res);
    }
    if (r < 0.96) return this.snippet();
    const res = await this.as('hamlet').patch('/settings', { twenty_four_hour_time: this.random() < 0.5, enter_sends: this.random() < 0.5 });
    return this.count('settings', res);
  }

  private channelId(name: string): number {
    const id = this.t.server.state.db.prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name);
    if (typeof id !== 'number') throw new Error(`no channel ${name}`);
    return id;
  }

  /** Moves with change_later / change_all touch other messages too: re-read the moved topic's. */
  private async refreshAll(k: Known): Promise<void> {
    const before = { channel: k.channel, topic: k.topic };
    for (const o of this.known.filter((x) => x.channel === before.channel && x.topic.toLowerCase() === before.topic.toLowerCase())) await this.refreshMessage(o);
  }

  private async send(): Promise<void> {
    const channel = this.pick(Object.keys(CHANNELS));
    const sender = this.pick(CHANNELS[channel]!.filter((u) => u !== 'hamlet'));
    const topic = this.pick(TOPICS);
    const res = await this.as(sender).post('/messages', { type: 'channel', to: channel, topic, content: this.words(3 + Math.floor(this.random() * 6)) });
    this.count('send', res);
    if (res.status === 200) this.known.push({ id: res.json.id as number, sender, channel, topic });
  }

  private async sendDm(): Promise<void> {
    const sender = this.pick(['othello', 'cordelia', 'iago']);
    const to = this.random() < 0.5 ? ['hamlet@example.com'] : ['hamlet@example.com', 'desdemona@example.com'];
    const res = await this.as(sender).post('/messages', { type: 'direct', to, content: this.words(4) });
    this.count('send dm', res);
    if (res.status === 200) this.known.push({ id: res.json.id as number, sender, channel: null, topic: '' });
  }

  private async snippet(): Promise<void> {
    const r = this.random();
    if (r < 0.5 || this.snippets.length === 0) {
      const res = await this.as('hamlet').post('/saved_snippets', { title: this.words(2), content: this.words(5) });
      this.count('snippet create', res);
      if (res.status === 200) this.snippets.push(res.json.saved_snippet_id as number);
    } else if (r < 0.8) {
      const res = await this.as('hamlet').patch(`/saved_snippets/${this.pick(this.snippets)}`, { content: this.words(3) });
      this.count('snippet edit', res);
    } else {
      const id = this.snippets.splice(Math.floor(this.random() * this.snippets.length), 1)[0]!;
      const res = await this.as('hamlet').delete(`/saved_snippets/${id}`);
      this.count('snippet delete', res);
    }
  }
}

/** A seeded random narrow (modern encoding) over the demo realm. */
export function randomNarrow(pick: <T>(xs: readonly T[]) => T, random: () => number, userIds: Record<string, number>): Array<{ operator: string; operand: string | number | number[]; negated?: boolean }> {
  const r = random();
  const channel = pick(['general', 'Verona', 'Denmark', 'Scotland']);
  const sender = pick(['iago', 'othello', 'cordelia', 'desdemona', 'shiva']);
  if (r < 0.08) return [];
  if (r < 0.2) return [{ operator: 'channel', operand: channel }];
  if (r < 0.35) return [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: pick(TOPICS) }];
  if (r < 0.42) return [{ operator: 'is', operand: 'starred' }];
  if (r < 0.49) return [{ operator: 'is', operand: 'unread' }];
  if (r < 0.54) return [{ operator: 'is', operand: 'mentioned' }];
  if (r < 0.6) return [{ operator: 'sender', operand: userIds[sender]! }];
  if (r < 0.65) return [{ operator: 'sender', operand: userIds[sender]!, negated: true }];
  if (r < 0.7) return [{ operator: 'is', operand: 'dm' }];
  if (r < 0.75) return [{ operator: 'dm', operand: [userIds.othello!] }];
  if (r < 0.8) return [{ operator: 'has', operand: 'reaction' }];
  if (r < 0.85) return [{ operator: 'is', operand: 'resolved' }];
  if (r < 0.9) return [{ operator: 'channel', operand: channel }, { operator: 'is', operand: 'unread' }];
  if (r < 0.95) return [{ operator: 'has', operand: 'link' }];
  return [{ operator: 'is', operand: 'followed' }];
}
