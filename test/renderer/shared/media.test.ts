/**
 * Media in messages besides uploads (renderer/src/shared/images.ts): images of other sites through
 * the realm's image proxy and people's avatars load from the host; a link preview's image (Zulip
 * writes it in a style attribute, which never reaches the page) is moved where the sanitiser can
 * decide it like an `<img>`. Test data: Zulip's own expected HTML (zerver/tests/test_link_embed.py's
 * `test_inline_url_embed_preview`, old and current escaping).
 */
import { describe, expect, it } from 'vitest';
import { avatarSrc, decideImage, embedImagesAsData, type ImageContext } from '../../../renderer/src/shared/images.js';

const browser: ImageContext = { realmUrl: 'https://chat.example.com', electron: false, uploadKey: 'k1' };
const electron: ImageContext = { realmUrl: 'https://chat.example.com', electron: true };
const CAMO = '/external_content/56c362a24201593891955ff526b3b412c0f9fcd2/68747470733a2f2f7777772e676f6f676c652e636f6d2f696d616765732f737270722f6c6f676f34772e706e67';

describe('media in messages', () => {
  it("another site's image through the realm's proxy loads from the host, named by the image's file name", () => {
    expect(decideImage({ src: CAMO, alt: null, linkTitle: null, insideLink: true }, browser)).toEqual({ kind: 'upload', src: `/uploads${CAMO}?k=k1`, alt: 'logo4w.png' });
    expect(decideImage({ src: `https://chat.example.com${CAMO}`, alt: null, linkTitle: 'Google link', insideLink: true }, electron)).toEqual({ kind: 'upload', src: `zulip-upload://realm${CAMO}`, alt: 'Google link' });
    // Straight from the other site, or a proxy on another origin: not loaded.
    expect(decideImage({ src: 'https://www.google.com/images/srpr/logo4w.png', alt: null, linkTitle: null, insideLink: true }, browser)).toMatchObject({ kind: 'blocked' });
    expect(decideImage({ src: `https://external-content.zulipcdn.net${CAMO}`, alt: null, linkTitle: null, insideLink: true }, browser)).toMatchObject({ kind: 'blocked' });
  });

  it("avatars: an uploaded one or Gravatar's from the host; Zulip's default image or none: initials", () => {
    const hash = 'ab'.repeat(20);
    expect(avatarSrc(`/user_avatars/2/${hash}.png?version=2`, browser)).toBe(`/uploads/user_avatars/2/${hash}.png?k=k1`);
    expect(avatarSrc('https://secure.gravatar.com/avatar/c6b5578d4964bd9c5fae593c6868912a?d=identicon&version=1', electron)).toBe('zulip-upload://realm/gravatar/c6b5578d4964bd9c5fae593c6868912a');
    expect(avatarSrc('/static/images/default-avatar.png?version=1', browser)).toBeUndefined();
    expect(avatarSrc(null, browser)).toBeUndefined();
    expect(avatarSrc(`/user_avatars/2/${hash}.png`, { realmUrl: null, electron: false })).toBeUndefined();
  });

  it("a link preview's image moves from its style to data-embed-src (Zulip's current and older escaping); nothing else changes", () => {
    const current =
      '<p><a href="http://test.org/">http://test.org/</a></p>\n<div class="message_embed"><a class="message_embed_image" href="http://test.org/" style="background-image: url(&quot;http://ia.media-imdb.com/images/rock.jpg&quot;)"></a><div class="data-container"><div class="message_embed_title"><a href="http://test.org/" title="The Rock">The Rock</a></div><div class="message_embed_description">Description text</div></div></div>';
    expect(embedImagesAsData(current)).toBe(current.replace(' style="background-image: url(&quot;http://ia.media-imdb.com/images/rock.jpg&quot;)"', ' data-embed-src="http://ia.media-imdb.com/images/rock.jpg"'));
    const older = '<div class="message_embed"><a class="message_embed_image" href="http://test.org/" style="background-image: url(http\\:\\/\\/ia\\.media-imdb\\.com\\/images\\/rock\\.jpg)"></a></div>';
    expect(embedImagesAsData(older)).toContain(' data-embed-src="http://ia.media-imdb.com/images/rock.jpg"');
    const plain = '<p style="color: red"><a href="x">x</a></p>';
    expect(embedImagesAsData(plain)).toBe(plain);
  });
});
