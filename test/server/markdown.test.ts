/** Message Markdown: Zulip's syntax rendered to Zulip-style HTML, and what it reports. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { renderMarkdown } from '../../server/markdown/render.js';
import { camoKey } from '../../server/model/media.js';
import { startTestServer, type TestServer } from './harness.js';
import { channelId } from './messages-util.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const render = (content: string) => renderMarkdown(t.server.state, content, { senderId: t.userId('hamlet') });
const groupId = (name: string) => t.server.state.db.prepare('SELECT id FROM user_groups WHERE name = ?').pluck().get(name) as number;

describe('global times (<time:…>)', () => {
  it('renders as Zulip does: a datetime in UTC and the text as written; unreadable ones say so', () => {
    // Zulip's markdown_test_cases.json: timestamp_backend_markdown_only and the invalid case.
    expect(render('<time:1496701800>').html).toBe('<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>');
    expect(render('Meet at <time:2017-11-28T11:01:00Z>.').html).toBe('<p>Meet at <time datetime="2017-11-28T11:01:00Z">2017-11-28T11:01:00Z</time>.</p>');
    expect(render('<time:not a time>').html).toBe('<p><span class="timestamp-error">Invalid time format: not a time</span></p>');
    expect(render('`<time:1496701800>`').html).toBe('<p><code>&lt;time:1496701800&gt;</code></p>');
  });
});

describe('basic Markdown', () => {
  it('paragraphs, emphasis and Zulip-style hard line breaks', () => {
    expect(render('**bold** *it*\nnext').html).toBe('<p><strong>bold</strong> <em>it</em><br>\nnext</p>');
  });

  it('raw HTML is escaped, never passed through', () => {
    expect(render('<script>alert(1)</script> <b>x</b>').html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;</p>');
  });

  it('quotes render as blockquote', () => {
    expect(render('> wise words').html).toBe('<blockquote>\n<p>wise words</p>\n</blockquote>');
  });

  it('fenced code renders as Zulip codehilite with the language name, content escaped', () => {
    expect(render('```python\nx = 1 < 2\n```').html).toBe('<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = 1 &lt; 2\n</code></pre></div>');
    expect(render('```\nplain\n```').html).toBe('<div class="codehilite"><pre><span></span><code>plain\n</code></pre></div>');
  });

  it('```quote renders its Markdown inside a blockquote', () => {
    expect(render('```quote\n**q**\n```').html).toBe('<blockquote>\n<p><strong>q</strong></p>\n</blockquote>');
  });

  it('```spoiler renders a header and hidden content', () => {
    expect(render('```spoiler The end\nEveryone dies.\n```').html).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>The end</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>Everyone dies.</p>\n</div></div>',
    );
  });

  it('inline code is not parsed for mentions or emoji', () => {
    const r = render('`@**King Hamlet** :smile:`');
    expect(r.html).toBe('<p><code>@**King Hamlet** :smile:</code></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });
});

describe('mentions', () => {
  it('@**Full Name** renders a user mention and reports the user', () => {
    const r = render('hi @**Othello, the Moor of Venice**');
    expect(r.html).toBe(`<p>hi <span class="user-mention" data-user-id="${t.userId('othello')}">@Othello, the Moor of Venice</span></p>`);
    expect(r.mentionedUserIds).toEqual([t.userId('othello')]);
  });

  it('names match case-insensitively', () => {
    expect(render('@**king hamlet**').mentionedUserIds).toEqual([t.userId('hamlet')]);
  });

  it('@**Full Name|id** picks the user by id; a mismatched name is not a mention', () => {
    expect(render(`@**King Hamlet|${t.userId('hamlet')}**`).mentionedUserIds).toEqual([t.userId('hamlet')]);
    expect(render(`@**Iago|${t.userId('hamlet')}**`).mentionedUserIds).toEqual([]);
    expect(render(`@**|${t.userId('iago')}**`).mentionedUserIds).toEqual([t.userId('iago')]);
  });

  it('@_**Name** is a silent mention: rendered without @, not reported', () => {
    const r = render('@_**Iago**');
    expect(r.html).toBe(`<p><span class="user-mention silent" data-user-id="${t.userId('iago')}">Iago</span></p>`);
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('an unknown name stays text', () => {
    const r = render('@**Nobody At All**');
    expect(r.html).toBe('<p>@<strong>Nobody At All</strong></p>');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('mentions need a boundary before the @', () => {
    expect(render('mail@**Iago**').mentionedUserIds).toEqual([]);
  });

  it('@*group* renders a group mention and reports the group; @_*group* is silent', () => {
    const r = render('@*leads* and @_*players*');
    expect(r.html).toBe(
      `<p><span class="user-group-mention" data-user-group-id="${groupId('leads')}">@leads</span> and <span class="user-group-mention silent" data-user-group-id="${groupId('players')}">players</span></p>`,
    );
    expect(r.mentionedGroupIds).toEqual([groupId('leads')]);
  });

  it('a deactivated group is not mentionable', () => {
    expect(render('@*retired*').mentionedGroupIds).toEqual([]);
  });

  it('@**all**, @**everyone**, @**channel** and @**stream** are channel wildcards', () => {
    for (const w of ['all', 'everyone', 'channel', 'stream']) {
      const r = render(`@**${w}**`);
      expect(r.html).toBe(`<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`);
      expect(r).toMatchObject({ wildcard: 'stream', streamWildcard: true, topicWildcard: false });
    }
  });

  it('@**topic** is the topic wildcard', () => {
    const r = render('@**topic**');
    expect(r.html).toBe('<p><span class="topic-mention">@topic</span></p>');
    expect(r).toMatchObject({ wildcard: 'topic', streamWildcard: false, topicWildcard: true });
  });

  it('silent wildcards are not reported', () => {
    expect(render('@_**all** @_**topic**')).toMatchObject({ wildcard: null, streamWildcard: false, topicWildcard: false });
  });

  it('mentions inside quotes become silent', () => {
    const r = render('> @**Iago** said');
    expect(r.html).toContain('user-mention silent');
    expect(r.mentionedUserIds).toEqual([]);
  });

  it('mentions inside spoilers count', () => {
    expect(render('```spoiler x\n@**Iago**\n```').mentionedUserIds).toEqual([t.userId('iago')]);
  });
});

describe('channel and topic links', () => {
  it('#**channel** links to the channel narrow', () => {
    const id = channelId(t, 'core team');
    expect(render('#**core team**').html).toBe(`<p><a class="stream" data-stream-id="${id}" href="/#narrow/channel/${id}-core-team">#core team</a></p>`);
  });

  it('#**channel>topic** links to the topic narrow with Zulip hash encoding', () => {
    const id = channelId(t, 'Denmark');
    expect(render('#**Denmark>castle life.1**').html).toBe(
      `<p><a class="stream-topic" data-stream-id="${id}" href="/#narrow/channel/${id}-Denmark/topic/castle.20life.2E1">#Denmark &gt; castle life.1</a></p>`,
    );
  });

  it('an unknown channel stays text', () => {
    expect(render('#**Atlantis**').html).toBe('<p>#<strong>Atlantis</strong></p>');
  });
});

describe('emoji, /me, links, images, uploads', () => {
  it(':name: renders a known emoji; unknown names stay text', () => {
    expect(render(':octopus: :not_an_emoji:').html).toBe('<p><span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span> :not_an_emoji:</p>');
  });

  it('/me at the start of a one-line message is a me message', () => {
    expect(render('/me dances').isMe).toBe(true);
    expect(render('/me dances\nand sings').isMe).toBe(false);
    expect(render('I /me').isMe).toBe(false);
  });

  it('links (Markdown and bare URLs) set hasLink', () => {
    expect(render('[zulip](https://zulip.com)').html).toBe('<p><a href="https://zulip.com">zulip</a></p>');
    expect(render('go to https://zulip.com now')).toMatchObject({ hasLink: true });
    expect(render('no links here').hasLink).toBe(false);
  });

  it("image links get an inline preview and set hasImage; another site's image loads through the realm's image proxy (camo)", () => {
    const r = render('https://example.com/cat.png');
    expect(r.hasImage).toBe(true);
    const hex = Buffer.from('https://example.com/cat.png').toString('hex');
    const digest = createHmac('sha1', camoKey(t.server.state)).update('https://example.com/cat.png').digest('hex');
    expect(r.html).toContain(`<div class="message_inline_image"><a href="https://example.com/cat.png" title="https://example.com/cat.png"><img src="/external_content/${digest}/${hex}"></a></div>`);
    // The realm's own upload is shown as linked; a link that is not http(s) gets no preview.
    expect(render('[p.png](/user_uploads/2/ab/p.png)').html).toContain('<img src="/user_uploads/2/ab/p.png">');
    expect(render('[x](ftp://example.com/x.png)').html).not.toContain('message_inline_image');
  });

  it("a linked video upload gets Zulip's inline video preview; another site's video does not", () => {
    expect(render('[clip.mp4](/user_uploads/2/ab/clip.mp4)').html).toBe(
      '<p><a href="/user_uploads/2/ab/clip.mp4">clip.mp4</a></p>\n<div class="message_inline_image message_inline_video"><a href="/user_uploads/2/ab/clip.mp4" title="clip.mp4"><video preload="metadata" src="/user_uploads/2/ab/clip.mp4"></video></a></div>',
    );
    expect(render('https://example.com/clip.webm').html).not.toContain('video');
  });

  it('Markdown image syntax renders as a link to the image plus preview (before FL 437)', () => {
    const r = render('![a cat](https://example.com/cat.jpg)');
    expect(r.html.startsWith('<p><a href="https://example.com/cat.jpg">a cat</a></p>')).toBe(true);
    expect(r.hasImage).toBe(true);
  });

  it('/user_uploads links of existing uploads are reported as attachments', () => {
    t.server.state.db
      .prepare("INSERT INTO attachments (owner_id, name, path_id, size, create_time, mime_type, data) VALUES (?, 'a.pdf', '2/aa/bbb/a.pdf', 1, 0, 'application/pdf', x'00')")
      .run(t.userId('hamlet'));
    const r = render('[a.pdf](/user_uploads/2/aa/bbb/a.pdf) [gone](/user_uploads/2/zz/none/x.pdf)');
    expect(r).toMatchObject({ hasAttachment: true, attachmentPathIds: ['2/aa/bbb/a.pdf'], hasLink: true });
  });
});
