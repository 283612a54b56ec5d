/**
 * Images in messages (renderer/src/shared/images.ts): the realm's uploads load from the host (the
 * `/uploads` route, or `zulip-upload:` under Electron) with an accessible name; every other image is
 * not loaded and becomes its text, as a link when it was not inside one.
 */
import { describe, expect, it } from 'vitest';
import { decideImage, type ImageContext } from '../../../renderer/src/shared/images.js';

const browser: ImageContext = { realmUrl: 'https://chat.example.com', electron: false };
const electron: ImageContext = { realmUrl: 'https://chat.example.com', electron: true };
const img = (src: string, more: { alt?: string; linkTitle?: string; insideLink?: boolean } = {}) => ({ src, alt: more.alt ?? null, linkTitle: more.linkTitle ?? null, insideLink: more.insideLink ?? false });

describe('images in messages', () => {
  it('realm uploads (relative, absolute, thumbnails) load from the host, named by alt, link title or file name', () => {
    expect(decideImage(img('/user_uploads/2/ab/cd/pic.png', { linkTitle: 'holiday.png', insideLink: true }), browser)).toEqual({ kind: 'upload', src: '/uploads/user_uploads/2/ab/cd/pic.png', alt: 'holiday.png' });
    expect(decideImage(img('https://chat.example.com/user_uploads/2/ab/my%20pic.png'), electron)).toEqual({ kind: 'upload', src: 'zulip-upload://realm/user_uploads/2/ab/my%20pic.png', alt: 'my pic.png' });
    expect(decideImage(img('/user_uploads/thumbnail/2/ab/pic.png/840x560.webp', { alt: 'a cat' }), browser)).toEqual({ kind: 'upload', src: '/uploads/user_uploads/thumbnail/2/ab/pic.png/840x560.webp', alt: 'a cat' });
  });

  it('other images are not loaded: text inside a link, a link of their own outside one', () => {
    expect(decideImage(img('https://evil.example/track.png', { linkTitle: 'track.png', insideLink: true }), browser)).toEqual({ kind: 'blocked', text: 'track.png', href: undefined });
    expect(decideImage(img('https://images.example/a/cat.jpg'), browser)).toEqual({ kind: 'blocked', text: 'cat.jpg', href: 'https://images.example/a/cat.jpg' });
    // The realm's own non-upload images (avatars, /static loaders) too; its custom emoji load like uploads.
    expect(decideImage(img('/user_avatars/2/abcdef.png', { alt: 'avatar' }), browser)).toEqual({ kind: 'blocked', text: 'avatar', href: undefined });
    expect(decideImage(img('/user_avatars/2/emoji/images/1.png', { alt: ':shipit:' }), browser)).toMatchObject({ kind: 'upload', alt: ':shipit:' });
    expect(decideImage(img('/user_uploads/temporary/tok/x.png'), browser)).toMatchObject({ kind: 'blocked' });
    expect(decideImage(img('https://chat.example.com.evil.example/user_uploads/2/a/b.png'), browser)).toMatchObject({ kind: 'blocked' });
  });

  it('data: and other schemes are never links; without alt they are dropped', () => {
    expect(decideImage(img('data:image/png;base64,AAAA'), browser)).toEqual({ kind: 'blocked', text: '', href: undefined });
    expect(decideImage(img('javascript:alert(1)', { alt: 'x' }), browser)).toEqual({ kind: 'blocked', text: 'x', href: undefined });
  });

  it('no account open: nothing is the realm’s', () => {
    expect(decideImage(img('/user_uploads/2/ab/pic.png'), { realmUrl: null, electron: false })).toMatchObject({ kind: 'blocked', href: undefined });
  });
});
