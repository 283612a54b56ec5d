/**
 * The e2e fixture: a browser-mode host started in this process (fresh data directory per test,
 * serving the built renderer from out/renderer), a page signed in to it through its one-time link,
 * screenshots kept as artifacts, and a demo user acting through the sandbox server's REST API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { startBrowserHost, type BrowserHost } from '../../host/browser/server.js';
import { expectAccessible } from './a11y.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const SCREENS_DIR = path.join(ROOT, 'test-results', 'e2e', 'screens');

export interface Fixtures {
  /** Open the sandbox when the host starts (skips the welcome screen). */
  sandboxAtStart: boolean;
  /** Console errors a test expects (matched by text); any other error in the page fails the test. */
  expectedConsoleErrors: RegExp | null;
  /** The sandbox server's clock: the system's, moved on by `advance` (the app's own clock is not). */
  serverClock: OffsetClock;
  host: BrowserHost;
  /** A page on the host, past the token redirect. */
  app: Page;
}

/** The system clock plus an offset a test moves, so the server's time can pass without waiting. */
export class OffsetClock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export const test = base.extend<Fixtures>({
  sandboxAtStart: [false, { option: true }],
  expectedConsoleErrors: [null, { option: true }],
  serverClock: async ({}, use) => {
    await use(new OffsetClock());
  },
  host: async ({ sandboxAtStart, serverClock }, use, testInfo) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'zulip-e2e-'));
    const logs: string[] = [];
    const host = await startBrowserHost({ dataDir, rendererDir: path.join(ROOT, 'out', 'renderer'), port: 0, sandbox: sandboxAtStart, sandboxClock: serverClock, log: (l) => logs.push(l) });
    try {
      await use(host);
    } finally {
      await host.close();
      if (logs.length > 0) await testInfo.attach('host-log.txt', { body: logs.join('\n'), contentType: 'text/plain' });
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  app: async ({ page, host, expectedConsoleErrors }, use, testInfo) => {
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !expectedConsoleErrors?.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    // Nothing the page does may reach another origin than the host's (docs/architecture.md rule 15).
    const foreign = foreignRequests(page, host.origin);
    await page.goto(host.url);
    await expect(page).toHaveURL(`${host.origin}/`);
    await use(page);
    // A CSP violation or an uncaught error in the page fails the test that caused it.
    expect(problems, 'errors in the page').toEqual([]);
    // Unless the test itself goes elsewhere on purpose (annotated OTHER_ORIGINS).
    if (!testInfo.annotations.some((a) => a.type === OTHER_ORIGINS)) expect(foreign, 'requests to another origin').toEqual([]);
  },
});

export { expect };

/** The annotation of a test that takes the browser to another origin itself (so the app fixture does not fail it for that). */
export const OTHER_ORIGINS = 'visits-other-origins';

/**
 * Every URL the page's context asks for (requests of the page and its workers, WebSockets, worker
 * scripts) that is on another origin than `origin` (or those of the set, for a test that starts
 * hosts on new ports), collected while the test runs; `data:`, `blob:` and `about:` are the page's own.
 */
export function foreignRequests(page: Page, origin: string | ReadonlySet<string>): string[] {
  // A set: the app's hosts as the test starts them (read at each request).
  const isOwn = (host: string) => (typeof origin === 'string' ? [origin] : [...origin]).some((o) => new URL(o).host === host);
  const foreign: string[] = [];
  const check = (url: string) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      foreign.push(url);
      return;
    }
    if (['data:', 'blob:', 'about:'].includes(u.protocol)) return;
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol) || !isOwn(u.host)) foreign.push(url);
  };
  page.context().on('request', (r) => check(r.url()));
  page.on('websocket', (ws) => check(ws.url()));
  page.on('worker', (w) => check(w.url()));
  return foreign;
}

/**
 * Save a screenshot under test-results/e2e/screens/ and attach it to the report, then check the
 * screen with axe (WCAG 2.1 A/AA, contrast included) as shown, and, shown light, its colours in the
 * dark theme too, unless the test shows this screen dark itself (`shownDarkToo`; its own dark
 * screenshot is checked then): every screen a test shows is checked in both themes.
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string, opts: { shownDarkToo?: boolean } = {}): Promise<void> {
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  await expectAccessible(page, testInfo, name, { darkToo: opts.shownDarkToo !== true });
}

/** `screenshot` as `NAME-light` and, the page switched to the dark theme and back, `NAME-dark`. */
export async function lightAndDark(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(page, testInfo, `${name}-light`, { shownDarkToo: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, testInfo, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
}

/**
 * Route the page's host WebSocket and pass each message's `content` through `swap` on its way in
 * (snapshots and view change sets alike), as a server could send it: HTML the sandbox's Markdown
 * cannot produce (hostile markup, Zulip's Pygments and KaTeX output). Call before the app loads.
 */
export async function swapContentOnTheWay(page: Page, swap: (content: string) => string): Promise<void> {
  type Msg = { content: string };
  const each = (ms: Msg[] | undefined) => ms?.forEach((m) => (m.content = swap(m.content)));
  const rewrite = (frame: string): string => {
    const f = JSON.parse(frame) as { result?: { value?: { snapshot?: { messages?: Msg[] } } }; event?: { type?: string; changes?: { added: Msg[]; updated: Msg[] } } };
    each(f.result?.value?.snapshot?.messages);
    if (f.event?.type === 'view' && f.event.changes) {
      each(f.event.changes.added);
      each(f.event.changes.updated);
    }
    return JSON.stringify(f);
  };
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => ws.send(typeof m === 'string' ? rewrite(m) : m));
  });
}

/** Open the sandbox from the welcome screen and wait for the channels to be listed. */
export async function openSandbox(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open the sandbox' }).click();
  await expect(sidebar(page).getByRole('link', { name: 'general', exact: true })).toBeVisible({ timeout: 30_000 });
}

export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Channels' });
export const messageList = (page: Page) => page.getByRole('list', { name: 'Message list' });

/** Open a channel, then one of its topics, from the sidebar (its rows are links to Zulip URL fragments). */
export async function openTopic(page: Page, channel: string, topic: string): Promise<void> {
  const nav = sidebar(page);
  await nav.getByRole('link', { name: channel, exact: true }).click();
  // A topic list reorders as messages arrive (newest first): a click that landed on the row moving
  // into the topic's place is tried again, as a person would.
  const heading = page.getByRole('heading', { level: 1, name: `${channel} › ${topic}` });
  await expect(async () => {
    await nav.getByRole('list', { name: `Topics in ${channel}` }).getByRole('link', { name: topic, exact: true }).click();
    await expect(heading).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Set the signed-in user's `web_mark_read_on_scroll_policy` at the server and wait until the app's
 * engine has it (reading marks messages read unless it says never).
 */
export async function markReadOnScroll(host: BrowserHost, policy: 'always' | 'conversations' | 'never'): Promise<void> {
  const value = { always: 1, conversations: 2, never: 3 }[policy];
  const me = await demoUser(host, 'desdemona@example.com');
  await me.updateSettings({ web_mark_read_on_scroll_policy: String(value) });
  const control = host.service.connect(() => undefined);
  try {
    await expect
      .poll(async () => {
        const r = await control.invoke('userSettings', {});
        return r.ok ? (r.value as Record<string, unknown>)['web_mark_read_on_scroll_policy'] : undefined;
      }, { timeout: 30_000 })
      .toBe(value);
  } finally {
    control.close();
  }
}

/** A message as the server's GET /messages gives it (the fields the tests read). */
export interface ServerMessage {
  id: number;
  content: string;
  /** When it was sent, UNIX seconds. */
  timestamp: number;
  subject: string;
  stream_id?: number;
  flags: string[];
  reactions: { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[];
}

/** A demo user of the sandbox server, acting through its REST API (Basic auth with a fetched key). */
export async function demoUser(host: BrowserHost, email: string) {
  const base = host.sandboxUrl();
  if (base === undefined) throw new Error('the sandbox server is not running');
  return demoUserAt(base, email);
}

/** A demo user of the reference server at `base` (e.g. one run as its own process). */
export async function demoUserAt(base: string, email: string) {
  const keyRes = await fetch(`${base}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: email, password: 'sandbox' }) });
  const key = (await keyRes.json()) as { result: string; api_key?: string; msg?: string };
  if (key.result !== 'success' || key.api_key === undefined) throw new Error(`fetch_api_key for ${email}: ${key.msg ?? keyRes.status}`);
  const auth = `Basic ${Buffer.from(`${email}:${key.api_key}`).toString('base64')}`;
  const call = async (method: string, apiPath: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/api/v1${apiPath}`, { method, headers: { authorization: auth }, body: new URLSearchParams(params) });
    const body = (await res.json()) as { result: string; msg?: string; id?: number };
    if (body.result !== 'success') throw new Error(`${method} ${apiPath}: ${body.msg ?? res.status}`);
    return body;
  };
  const channelId = async (name: string): Promise<number> => {
    const res = await fetch(`${base}/api/v1/streams`, { headers: { authorization: auth } });
    const body = (await res.json()) as { streams?: Array<{ stream_id: number; name: string }> };
    const c = body.streams?.find((x) => x.name === name);
    if (!c) throw new Error(`no channel ${name}`);
    return c.stream_id;
  };
  return {
    /** Post to a channel topic; returns the message id. */
    async send(channel: string, topic: string, content: string): Promise<number> {
      const r = await call('POST', '/messages', { type: 'stream', to: channel, topic, content });
      if (typeof r.id !== 'number') throw new Error('send: no message id');
      return r.id;
    },
    /** A direct message to the given addresses (JSON list of emails, as Zulip takes it); returns the message id. */
    async sendDm(to: string[], content: string): Promise<number> {
      const r = await call('POST', '/messages', { type: 'direct', to: JSON.stringify(to), content });
      if (typeof r.id !== 'number') throw new Error('sendDm: no message id');
      return r.id;
    },
    async edit(messageId: number, content: string): Promise<void> {
      await call('PATCH', `/messages/${messageId}`, { content });
    },
    /** Change this user's own settings as another client would (PATCH /settings), e.g. `{ color_scheme: '2' }`. */
    async updateSettings(params: Record<string, string>): Promise<void> {
      await call('PATCH', '/settings', params);
    },
    /** Change realm settings (administrators), e.g. `{ allow_message_editing: 'false' }`. */
    async updateRealm(params: Record<string, string>): Promise<void> {
      await call('PATCH', '/realm', params);
    },
    /** Ids of this user's unread messages in a channel topic, as the server says (GET /messages with flags). */
    async unreadIn(channel: string, topic: string): Promise<number[]> {
      const narrow = JSON.stringify([
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: topic },
      ]);
      const q = new URLSearchParams({ narrow, anchor: 'newest', num_before: '1000', num_after: '0', apply_markdown: 'false' });
      const res = await fetch(`${base}/api/v1/messages?${q}`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; messages?: { id: number; flags: string[] }[] };
      if (body.result !== 'success' || body.messages === undefined) throw new Error(`GET /messages: ${body.msg ?? res.status}`);
      return body.messages.filter((m) => !m.flags.includes('read')).map((m) => m.id);
    },
    /** The server's view of one message for this user: flags, reactions, topic, channel, raw content. */
    async message(messageId: number): Promise<ServerMessage> {
      const q = new URLSearchParams({ anchor: String(messageId), num_before: '0', num_after: '0', narrow: '[]', apply_markdown: 'false' });
      const res = await fetch(`${base}/api/v1/messages?${q}`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; messages?: ServerMessage[] };
      const m = body.messages?.find((x) => x.id === messageId);
      if (body.result !== 'success' || m === undefined) throw new Error(`GET /messages at ${messageId}: ${body.msg ?? res.status}`);
      return m;
    },
    /** A channel topic's messages as the server has them, oldest first (raw contents). */
    async topicMessages(channel: string, topic: string): Promise<ServerMessage[]> {
      const narrow = JSON.stringify([
        { operator: 'channel', operand: channel },
        { operator: 'topic', operand: topic },
      ]);
      const q = new URLSearchParams({ narrow, anchor: 'newest', num_before: '1000', num_after: '0', apply_markdown: 'false' });
      const res = await fetch(`${base}/api/v1/messages?${q}`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; messages?: ServerMessage[] };
      if (body.result !== 'success' || body.messages === undefined) throw new Error(`GET /messages: ${body.msg ?? res.status}`);
      return body.messages;
    },
    /** The raw Markdown of a channel topic's messages, oldest first, as the server has them. */
    async contentsIn(channel: string, topic: string): Promise<string[]> {
      return (await this.topicMessages(channel, topic)).map((m) => m.content);
    },
    /** This user's topic visibility policies, as the server keeps them (register's `user_topics`). */
    async userTopics(): Promise<{ stream_id: number; topic_name: string; visibility_policy: number }[]> {
      const res = await fetch(`${base}/api/v1/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ fetch_event_types: '["user_topic"]' }) });
      const body = (await res.json()) as { result: string; msg?: string; user_topics?: { stream_id: number; topic_name: string; visibility_policy: number }[] };
      if (body.result !== 'success' || body.user_topics === undefined) throw new Error(`POST /register: ${body.msg ?? res.status}`);
      return body.user_topics;
    },
    /** Move a message (and others per `propagate_mode`) to another topic, as another client would. */
    async move(messageId: number, topic: string, propagate: 'change_one' | 'change_later' | 'change_all' = 'change_one'): Promise<void> {
      await call('PATCH', `/messages/${messageId}`, { topic, propagate_mode: propagate, send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false' });
    },
    /** Say this user starts or stops editing a message (typing-for-edit notifications). */
    async editTyping(messageId: number, op: 'start' | 'stop'): Promise<void> {
      await call('POST', `/messages/${messageId}/typing`, { op });
    },
    /** Say this user starts or stops typing in a channel's topic (POST /typing). */
    async typing(channel: string, topic: string, op: 'start' | 'stop'): Promise<void> {
      await call('POST', '/typing', { type: 'channel', op, stream_id: String(await channelId(channel)), topic });
    },
    /** A channel's id by name, as the server has it. */
    channelId,
    /**
     * An event queue of this user for `types` (registered now, with the capabilities the app has);
     * `events()` answers what arrived since the last call, without waiting.
     */
    async eventQueue(types: string[]): Promise<{ events(): Promise<Array<Record<string, unknown>>> }> {
      const capabilities = { notification_settings_null: true, stream_typing_notifications: true, user_settings_object: true, empty_topic_name: true };
      const reg = (await call('POST', '/register', { event_types: JSON.stringify(types), client_capabilities: JSON.stringify(capabilities) })) as unknown as { queue_id: string; last_event_id: number };
      let last = reg.last_event_id;
      return {
        async events() {
          const q = new URLSearchParams({ queue_id: reg.queue_id, last_event_id: String(last), dont_block: 'true' });
          const res = await fetch(`${base}/api/v1/events?${q.toString()}`, { headers: { authorization: auth } });
          const body = (await res.json()) as { result: string; msg?: string; events?: Array<Record<string, unknown> & { id: number }> };
          if (body.result !== 'success' || !body.events) throw new Error(`GET /events: ${body.msg ?? res.status}`);
          for (const e of body.events) last = Math.max(last, e.id);
          return body.events.filter((e) => e.type !== 'heartbeat');
        },
      };
    },
    /** React to a message with a Unicode emoji by name. */
    async react(messageId: number, emojiName: string): Promise<void> {
      await call('POST', `/messages/${messageId}/reactions`, { emoji_name: emojiName });
    },
    /** This user's scheduled messages as the server has them (GET /scheduled_messages). */
    async scheduledMessages(): Promise<{ scheduled_message_id: number; type: string; to: number | number[]; topic?: string; content: string; scheduled_delivery_timestamp: number; failed: boolean }[]> {
      const res = await fetch(`${base}/api/v1/scheduled_messages`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; scheduled_messages?: { scheduled_message_id: number; type: string; to: number | number[]; topic?: string; content: string; scheduled_delivery_timestamp: number; failed: boolean }[] };
      if (body.result !== 'success' || body.scheduled_messages === undefined) throw new Error(`GET /scheduled_messages: ${body.msg ?? res.status}`);
      return body.scheduled_messages;
    },
    /** Schedule a message as another client would (POST /scheduled_messages); returns its id. */
    async schedule(channel: string, topic: string, content: string, at: number): Promise<number> {
      const res = await fetch(`${base}/api/v1/streams`, { headers: { authorization: auth } });
      const streams = ((await res.json()) as { streams?: { stream_id: number; name: string }[] }).streams ?? [];
      const id = streams.find((c) => c.name === channel)?.stream_id;
      if (id === undefined) throw new Error(`schedule: no channel ${channel}`);
      const r = (await call('POST', '/scheduled_messages', { type: 'stream', to: String(id), topic, content, scheduled_delivery_timestamp: String(at) })) as { scheduled_message_id?: number };
      if (typeof r.scheduled_message_id !== 'number') throw new Error('schedule: no id');
      return r.scheduled_message_id;
    },
    /** Leave a channel (DELETE /users/me/subscriptions). */
    async unsubscribe(channel: string): Promise<void> {
      await call('DELETE', '/users/me/subscriptions', { subscriptions: JSON.stringify([channel]) });
    },
    /** This user's saved snippets as the server has them (GET /saved_snippets). */
    async savedSnippets(): Promise<{ id: number; title: string; content: string }[]> {
      const res = await fetch(`${base}/api/v1/saved_snippets`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; saved_snippets?: { id: number; title: string; content: string }[] };
      if (body.result !== 'success' || body.saved_snippets === undefined) throw new Error(`GET /saved_snippets: ${body.msg ?? res.status}`);
      return body.saved_snippets;
    },
    /** The server's raw Markdown of a message (what an edit from the app must have changed). */
    async raw(messageId: number): Promise<string> {
      const res = await fetch(`${base}/api/v1/messages/${messageId}?apply_markdown=false`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; message?: { content?: unknown } };
      if (body.result !== 'success' || typeof body.message?.content !== 'string') throw new Error(`GET /messages/${messageId}: ${body.msg ?? res.status}`);
      return body.message.content;
    },
    /** The server's versions of a message (GET /messages/{id}/history): the original, then one per edit or move. */
    async versions(messageId: number): Promise<number> {
      const res = await fetch(`${base}/api/v1/messages/${messageId}/history`, { headers: { authorization: auth } });
      const body = (await res.json()) as { result: string; msg?: string; message_history?: unknown[] };
      if (body.result !== 'success' || body.message_history === undefined) throw new Error(`GET /messages/${messageId}/history: ${body.msg ?? res.status}`);
      return body.message_history.length;
    },
  };
}

/**
 * Record the page's Web Notifications (`window.__notes`, each with its title, body and `onclick`)
 * with permission granted, and the app in the background (`document.hasFocus()` answers
 * `window.__focused`, false until a test sets it). Call before the app loads.
 */
export async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = globalThis as unknown as Record<string, unknown> & { __notes: unknown[] };
    w.__notes = [];
    class RecordingNotification {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      onclick: (() => void) | null = null;
      constructor(
        public title: string,
        opts: { body?: string } = {},
      ) {
        (this as unknown as { body: string }).body = opts.body ?? '';
        w.__notes.push(this);
      }
      close() {}
    }
    w['Notification'] = RecordingNotification;
    (w['document'] as { hasFocus: () => boolean }).hasFocus = () => w['__focused'] === true;
  });
}
