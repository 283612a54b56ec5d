/**
 * Message Markdown → Zulip-style HTML, plus what the message mentions and links to. markdown-it
 * with raw HTML disabled (escaped), linkify, and Zulip's hard line breaks; Zulip's own syntax
 * comes from the `zulipSyntax` plugin. Lookups are case-insensitive and see active users, active
 * (not deactivated) groups and every channel, as Zulip's mention data does.
 */
import MarkdownIt from 'markdown-it';
import { sql } from '../db/statements.js';
import { getRealm } from '../model/realm.js';
import { camoPath } from '../model/media.js';
import { activeRealmEmoji } from '../model/realm-emoji.js';
import type { ServerState } from '../state.js';
import { silenceQuotedMentions, ZULIP, zulipSyntax, type MentionedUser, type NamedThing, type ZulipEnv } from './zulip-syntax.js';

export interface RenderContext {
  readonly senderId: number;
  readonly channelId?: number | undefined;
}

export interface RenderedMessage {
  readonly html: string;
  /** Users mentioned by a non-silent `@**Name**` (not via groups). */
  readonly mentionedUserIds: number[];
  /** `'stream'` if a non-silent channel wildcard is present, else `'topic'` for a topic wildcard. */
  readonly wildcard: 'stream' | 'topic' | null;
  readonly streamWildcard: boolean;
  readonly topicWildcard: boolean;
  /** Groups mentioned by a non-silent `@*group*`. */
  readonly mentionedGroupIds: number[];
  readonly isMe: boolean;
  readonly hasLink: boolean;
  readonly hasImage: boolean;
  readonly hasAttachment: boolean;
  /** `path_id`s of `/user_uploads/<path_id>` links that name existing uploads. */
  readonly attachmentPathIds: string[];
  /** Every link's href, in order. */
  readonly links: readonly string[];
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.use(zulipSyntax);
md.linkify.set({ fuzzyEmail: false });

const UPLOAD_PATH = /^\/user_uploads\/(\d+\/[^?#]+)/;

/** The `path_id` a link points at, if it is a `/user_uploads/` link of this server (relative or absolute). */
export function uploadPathId(href: string, realmUrl: string): string | undefined {
  const local = realmUrl !== '' && href.startsWith(`${realmUrl}/`) ? href.slice(realmUrl.length) : href;
  const m = UPLOAD_PATH.exec(local);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/**
 * Where an image link's preview loads from, as Zulip renders it: the realm's own files as linked,
 * another site's image through the realm's image proxy (camo), anything else not at all.
 */
function previewSrc(srv: ServerState, href: string): string | undefined {
  if (uploadPathId(href, srv.config.realmUrl) !== undefined) return href;
  return /^https?:\/\//i.test(href) ? camoPath(srv, href) : undefined;
}

export function renderMarkdown(srv: ServerState, content: string, _ctx: RenderContext): RenderedMessage {
  const userByName = sql(srv, 'SELECT id, full_name FROM users WHERE is_active = 1 AND full_name = ? COLLATE NOCASE ORDER BY id LIMIT 1');
  const userById = sql(srv, 'SELECT id, full_name FROM users WHERE is_active = 1 AND id = ?');
  const groupByName = sql(srv, 'SELECT id, name FROM user_groups WHERE deactivated = 0 AND name = ? COLLATE NOCASE ORDER BY id LIMIT 1');
  const channelByName = sql(srv, 'SELECT id, name FROM channels WHERE name = ?');
  const env: ZulipEnv = {
    user: (name, id) => {
      if (id !== null) {
        const u = userById.get(id) as MentionedUser | undefined;
        return u && (name === null || u.full_name === name) ? u : undefined;
      }
      return name === null ? undefined : (userByName.get(name.trim()) as MentionedUser | undefined);
    },
    group: (name) => groupByName.get(name) as NamedThing | undefined,
    channel: (name) => channelByName.get(name) as NamedThing | undefined,
    emptyTopicName: getRealm(srv).empty_topic_display_name,
    realmUrl: srv.config.realmUrl,
    customEmoji: (name) => activeRealmEmoji(srv, name)?.source_url,
    imageSrc: (href) => previewSrc(srv, href),
    isUpload: (href) => uploadPathId(href, srv.config.realmUrl) !== undefined,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    streamWildcard: false,
    topicWildcard: false,
    links: [],
    hasImage: false,
  };
  const html = md.render(silenceQuotedMentions(content), { [ZULIP]: env }).trimEnd();
  const attachmentExists = sql(srv, 'SELECT 1 FROM attachments WHERE path_id = ?');
  const pathIds = new Set<string>();
  for (const href of env.links) {
    const p = uploadPathId(href, srv.config.realmUrl);
    if (p !== undefined && attachmentExists.get(p)) pathIds.add(p);
  }
  const isMe = /^\/me /.test(content) && !content.includes('\n') && html.startsWith('<p>/me ');
  return {
    html,
    mentionedUserIds: [...env.mentionedUserIds],
    wildcard: env.streamWildcard ? 'stream' : env.topicWildcard ? 'topic' : null,
    streamWildcard: env.streamWildcard,
    topicWildcard: env.topicWildcard,
    mentionedGroupIds: [...env.mentionedGroupIds],
    isMe,
    hasLink: env.links.length > 0,
    hasImage: env.hasImage,
    hasAttachment: pathIds.size > 0,
    attachmentPathIds: [...pathIds],
    links: env.links,
  };
}
