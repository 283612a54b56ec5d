/**
 * The design tokens' text colours against the surfaces they are drawn on, in both themes, at
 * WCAG AA (4.5:1 for body text). axe checks each screen the e2e tests show; this checks every pair
 * the tokens allow, including ones no screen happens to show (every avatar tone, say).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CSS = readFileSync(path.resolve(import.meta.dirname, '../../../renderer/src/kit/tokens.css'), 'utf8');

/** The `--name: #rrggbb` declarations of one block (`:root {` or the dark theme's). */
function tokens(selector: string): Record<string, string> {
  const start = CSS.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block`);
  const block = CSS.slice(start, CSS.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)].map((m) => [m[1], m[2]]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const light = tokens(':root');
const dark = { ...light, ...tokens(":root[data-theme='dark']") };
const SURFACES = ['bg', 'panel', 'sidebar', 'input-bg'];
const TEXTS = ['text', 'muted', 'accent', 'error'];

describe('token contrast (WCAG AA, 4.5:1)', () => {
  it('the contrast formula matches known pairs', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  for (const [name, t] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it(`${name}: every text colour on every surface`, () => {
      const low = SURFACES.flatMap((s) => TEXTS.map((x) => [`--${x} on --${s}`, contrast(t[x]!, t[s]!)] as const)).filter(([, c]) => c < 4.5);
      expect(low).toEqual([]);
    });
    it(`${name}: initials on every avatar tone, and the accent's own text`, () => {
      const tones = Object.keys(t).filter((k) => k.startsWith('tone-'));
      expect(tones.length).toBeGreaterThanOrEqual(8);
      const low = tones.map((k) => [k, contrast(t['avatar-text']!, t[k]!)] as const).filter(([, c]) => c < 4.5);
      expect(low).toEqual([]);
      expect(contrast(t['accent-text']!, t['accent']!)).toBeGreaterThanOrEqual(4.5);
    });
    it(`${name}: a search's highlighted words`, () => {
      expect(contrast(t['match-text']!, t['match-bg']!)).toBeGreaterThanOrEqual(4.5);
      // A mention of the reader keeps the body text readable.
      expect(contrast(t['text']!, t['mention-me-bg']!)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
