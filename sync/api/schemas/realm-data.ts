/**
 * Realm-wide data clients read once: custom emoji (OpenAPI `RealmEmoji`, keyed by id in
 * `GET /realm/emoji` and register's `realm_emoji`) and linkifiers (`GET /realm/linkifiers`,
 * register's `realm_linkifiers`).
 */
import * as z from 'zod';
import { int } from './envelope.js';

export const realmEmoji = z.lazy(() => z.object({
  /** The same as the object's key. */
  id: z.string(),
  name: z.string(),
  /** Relative to the realm URL. */
  source_url: z.string(),
  /** Non-null only for animated emoji (optional before FL 113). */
  still_url: z.string().nullable().default(null),
  deactivated: z.boolean(),
  /** `null` when the uploader is unknown (FL 7). */
  author_id: int.nullable().default(null),
}));
export type RealmEmoji = z.output<typeof realmEmoji>;

export const linkifier = z.object({
  /** A Python-flavoured regular expression (named groups `(?P<name>...)`). */
  pattern: z.string(),
  /** RFC 6570 URL template (FL 176; `url_format` before). */
  url_template: z.string(),
  id: int,
});
export type Linkifier = z.output<typeof linkifier>;
