/**
 * The demo realm's content: hand-written conversations in every channel (with mentions, an edited
 * message, a moved message, a resolved topic, reactions, direct messages 1:1 and in a group),
 * each user's unread and starred messages, topic preferences, saved snippets, navigation views
 * and scheduled messages (one of them failed). Everything goes through the same model functions
 * as the API, so the rows and their derived data (flags, edit history, full-text index) are real.
 * `extraMessages` adds generated history before it (generated.ts). Deterministic: the same realm
 * on every start, dated relative to the server's clock.
 */
import { seconds } from '../clock.js';
import { FLAG } from '../model/flags.js';
import { editMessage } from '../model/message-edit.js';
import { updateMessageFlags } from '../model/message-flags.js';
import { sendMessage, type SendTarget } from '../model/message-send.js';
import { addNavigationView } from '../model/navigation-views.js';
import { addReaction } from '../model/reactions.js';
import { addRealmEmoji } from '../model/realm-emoji.js';
import { createSavedSnippet } from '../model/saved-snippets.js';
import { createScheduledMessage, resolveTarget } from '../model/scheduled-messages.js';
import { setUserTopicPolicy } from '../model/user-topics.js';
import { getUserByEmail, type UserRow } from '../model/users.js';
import type { ServerState } from '../state.js';
import { discPng } from './emoji-images.js';
import { seedGeneratedMessages } from './generated.js';

type Who = 'desdemona' | 'iago' | 'shiva' | 'hamlet' | 'othello' | 'cordelia' | 'polonius';

/** A channel message [channel, topic, sender, content] or a direct message [[recipients], sender, content]. */
type Line = readonly [channel: string, topic: string, sender: Who, content: string] | readonly [to: readonly Who[], sender: Who, content: string];

/** The conversations, in sending order. Labels (`#name`) mark messages later steps refer to. */
const SCRIPT: ReadonlyArray<Line | readonly [label: `#${string}`, line: Line]> = [
  ['general', 'welcome', 'desdemona', 'Welcome to the **Sandbox** realm! This is an offline copy of a team chat; poke at anything.'],
  ['general', 'welcome', 'iago', 'Glad to be here. Channels: #**Verona**, #**Denmark** and #**Scotland** for the plays, #**general** for everything else.'],
  ['#welcome-hamlet', ['general', 'welcome', 'hamlet', 'To post, or not to post: that is the question.']],
  ['general', 'welcome', 'polonius', 'Neither a borrower nor a lender be. Also: I am a guest here, so I only see my own channels.'],
  ['general', 'lunch plans', 'othello', 'Anyone up for lunch at the Sagittary?'],
  ['general', 'lunch plans', 'cordelia', 'Count me in :thumbs_up:'],
  ['general', 'lunch plans', 'shiva', 'I will bring the curry.'],
  ['general', '', 'iago', 'A message in the empty topic (shown as "general chat").'],
  ['general', 'release schedule', 'desdemona', '@**all** the next release is on Friday. Please review the checklist:\n\n- [ ] changelog\n- [ ] translations\n- [ ] screenshots'],
  ['general', 'release schedule', 'iago', 'I can take the changelog. `npm run build` is green on main.'],
  ['Verona', 'balcony scene', 'cordelia', 'What light through yonder window breaks?'],
  ['#balcony-othello', ['Verona', 'balcony scene', 'othello', 'It is the east, and the sun is rising. ```\nstage.lighting = "dawn";\n```']],
  ['Verona', 'balcony scene', 'hamlet', 'Wrong play, but I approve.'],
  ['Verona', 'sword fight', 'iago', 'Rehearsal for the sword fight moves to Thursday.'],
  ['Verona', 'sword fight', 'shiva', 'Blunted blades only, please. @*leads* that means you.'],
  ['#feud', ['Verona', 'the feud', 'othello', 'Can we finally settle the Montague–Capulet scheduling conflict?']],
  ['Verona', 'the feud', 'desdemona', 'Settled: Montagues on Mondays, Capulets on Tuesdays.'],
  ['Verona', 'the feud', 'cordelia', 'Works for me. Marking this one done.'],
  ['Denmark', 'castle', 'hamlet', 'Elsinore castle needs new battlements. Who has the budget spreadsheet?'],
  ['#castle-cordelia', ['Denmark', 'castle', 'cordelia', 'I do: https://example.com/elsinore-budget']],
  ['Denmark', 'castle', 'desdemona', 'Approved, within reason.'],
  ['Denmark', 'ghost sightings', 'polonius', 'Something walked on the battlements last night.'],
  ['Denmark', 'ghost sightings', 'hamlet', '> Something walked on the battlements\n\nIt was my father. We talked.'],
  ['#rotten', ['Denmark', 'rotten', 'polonius', 'Something is rotten in the state of Denmark.']],
  ['Denmark', 'rotten', 'iago', 'Moving this to a better topic name.'],
  ['Scotland', 'heath weather', 'iago', 'Thunder, lightning, or in rain?'],
  ['#weather-shiva', ['Scotland', 'heath weather', 'shiva', 'Forecast says rain tomorow.']],
  ['Scotland', 'heath weather', 'othello', 'Fair is foul, and foul is fair.'],
  ['Scotland', 'castle repairs', 'shiva', 'Birnam Wood is approaching; the castle gate still sticks.'],
  ['core team', 'planning', 'desdemona', 'Private channel: quarterly planning goes here.'],
  ['core team', 'planning', 'iago', 'Draft roadmap attached soon. @**King Hamlet** can you own the docs?'],
  ['core team', 'budget', 'hamlet', 'Budget is tight; the ghost costs nothing at least.'],
  [['othello'], 'hamlet', 'Othello, do you have a minute about the handkerchief?'],
  [['hamlet'], 'othello', 'Always. What about it?'],
  [['othello', 'cordelia'], 'hamlet', 'Group chat for the cast party: Saturday?'],
  [['hamlet', 'cordelia'], 'othello', 'Saturday works.'],
  [['desdemona'], 'iago', 'A private word, my lady: the release notes are ready for review.'],
  [['hamlet'], 'hamlet', 'Note to self: buy a skull for the graveyard scene.'],
  // From here on, messages start unread for their recipients.
  ['#unread-start', ['Denmark', 'castle', 'iago', 'The masons arrive on Monday.']],
  ['Denmark', 'castle', 'cordelia', '@**King Hamlet** please confirm the masons can use the north gate.'],
  ['Verona', 'balcony scene', 'othello', 'Rehearsal tonight at eight.'],
  ['general', 'release schedule', 'shiva', 'Translations are done :tada:'],
  [['hamlet'], 'othello', 'Also: bring the script tonight.'],
  [['hamlet', 'othello'], 'cordelia', 'I made a cake for Saturday.'],
];

/** Spacing of the hand-written messages, ending just before "now". */
const STEP_SECONDS = 15 * 60;
/** Generated history (if any) ends this long before the hand-written conversations. */
const HISTORY_DAYS = 60;

export function seedDemoContent(srv: ServerState, opts: { extraMessages: number }): void {
  const now = seconds(srv.clock);
  const firstHandWritten = now - SCRIPT.length * STEP_SECONDS;
  seedGeneratedMessages(srv, opts.extraMessages, firstHandWritten - HISTORY_DAYS * 86_400, firstHandWritten - 3600);

  const user = (who: Who): UserRow => {
    const u = getUserByEmail(srv, `${who}@example.com`);
    if (!u) throw new Error(`demo user ${who} missing`);
    return u;
  };
  const channelId = (name: string) => srv.db.prepare('SELECT id FROM channels WHERE name = ?').pluck().get(name) as number;

  // The realm's custom emoji (`:shipit:`, `:party_parrot:`), before any message could use them.
  addRealmEmoji(srv, user('iago').id, 'shipit', { mimeType: 'image/png', data: discPng([0x2e, 0x7d, 0x32]) });
  addRealmEmoji(srv, user('iago').id, 'party_parrot', { mimeType: 'image/png', data: discPng([0xc2, 0x18, 0x5b]) });

  const ids: Record<string, number> = {};
  SCRIPT.forEach((entry, i) => {
    const [label, line] = typeof entry[0] === 'string' && entry[0].startsWith('#') ? (entry as readonly [string, Line]) : [undefined, entry as Line];
    let to: SendTarget;
    let sender: Who;
    let content: string;
    if (Array.isArray(line[0])) {
      const [recipients, s, c] = line as readonly [readonly Who[], Who, string];
      to = { userIds: recipients.map((w) => user(w).id) };
      sender = s;
      content = c;
    } else {
      const [channel, topic, s, c] = line as readonly [string, string, Who, string];
      to = { channelId: channelId(channel), topic };
      sender = s;
      content = c;
    }
    const id = sendMessage(srv, user(sender), { to, content, client: 'website', dateSent: firstHandWritten + i * STEP_SECONDS });
    if (label) ids[label.slice(1)] = id;
  });
  const id = (label: string) => {
    const v = ids[label];
    if (v === undefined) throw new Error(`demo label ${label} missing`);
    return v;
  };

  // Everything before the marked message has been read by everyone; the rest is unread.
  srv.db.prepare(`UPDATE user_messages SET flags = flags | ${FLAG.read} WHERE message_id < ?`).run(id('unread-start'));

  // An edited message (content edit history), a moved message, a resolved topic.
  const edit = { propagateMode: 'change_one', sendNotificationToOldThread: false, sendNotificationToNewThread: true } as const;
  editMessage(srv, user('shiva'), id('weather-shiva'), { ...edit, content: 'Forecast says rain tomorrow; bring a cloak.' });
  editMessage(srv, user('iago'), id('rotten'), { ...edit, topic: 'something is rotten' });
  editMessage(srv, user('iago'), id('feud'), { ...edit, propagateMode: 'change_all', topic: '✔ the feud' });

  // Reactions.
  addReaction(srv, user('othello'), id('welcome-hamlet'), { emojiName: 'joy' });
  addReaction(srv, user('cordelia'), id('welcome-hamlet'), { emojiName: 'joy' });
  addReaction(srv, user('desdemona'), id('welcome-hamlet'), { emojiName: 'heart' });
  addReaction(srv, user('hamlet'), id('balcony-othello'), { emojiName: 'sunglasses' });
  addReaction(srv, user('hamlet'), id('castle-cordelia'), { emojiName: 'thumbs_up' });
  addReaction(srv, user('iago'), id('castle-cordelia'), { emojiName: 'zulip' });

  // Starred messages.
  updateMessageFlags(srv, user('hamlet'), 'add', 'starred', [id('castle-cordelia'), id('balcony-othello')]);
  updateMessageFlags(srv, user('othello'), 'add', 'starred', [id('welcome-hamlet')]);

  // Topic preferences.
  setUserTopicPolicy(srv, user('hamlet').id, channelId('Denmark'), 'castle', 3);
  setUserTopicPolicy(srv, user('hamlet').id, channelId('general'), 'lunch plans', 1);
  setUserTopicPolicy(srv, user('cordelia').id, channelId('Verona'), 'balcony scene', 3);

  // Saved snippets.
  createSavedSnippet(srv, user('hamlet').id, 'Soliloquy', 'To be, or not to be, that is the question.');
  createSavedSnippet(srv, user('hamlet').id, 'Meeting notes', '**Attendees:**\n\n**Decisions:**\n\n**Action items:**');
  createSavedSnippet(srv, user('desdemona').id, 'Release reminder', 'Friendly reminder: the release checklist is in #**general>release schedule**.');

  // Navigation views.
  addNavigationView(srv, user('hamlet').id, { fragment: 'inbox', is_pinned: true, name: null });
  addNavigationView(srv, user('hamlet').id, { fragment: 'narrow/is/starred', is_pinned: false, name: null });
  addNavigationView(srv, user('hamlet').id, { fragment: `narrow/channel/${channelId('Denmark')}-Denmark/topic/castle`, is_pinned: true, name: 'Castle works' });
  addNavigationView(srv, user('cordelia').id, { fragment: 'recent', is_pinned: true, name: null });

  // Scheduled messages: two pending, one that failed to send.
  const hamlet = user('hamlet');
  createScheduledMessage(srv, hamlet, {
    target: resolveTarget(srv, hamlet, 'stream', channelId('Denmark'), 'castle'),
    content: 'Reminder: the masons start today.',
    deliverAt: now + 86_400,
  });
  createScheduledMessage(srv, hamlet, {
    target: resolveTarget(srv, hamlet, 'private', [user('othello').id], undefined),
    content: 'Did you find the handkerchief?',
    deliverAt: now + 2 * 3600,
  });
  const polonius = user('polonius');
  const failed = createScheduledMessage(srv, polonius, {
    target: { kind: 'stream', channelId: channelId('Verona'), topic: 'advice' },
    content: 'A word of advice for the young lovers.',
    deliverAt: now - 3600,
  });
  srv.db
    .prepare('UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?')
    .run("Not authorized to send to channel 'Verona'", failed);
}
