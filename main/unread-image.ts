/**
 * The small images the unread count needs, drawn in code (no image files to ship or find at run
 * time): raw BGRA bitmaps for `nativeImage.createFromBitmap`.
 *   overlayBitmap(n)   16×16: Windows' taskbar overlay, a red disc with the count in white ("9+" above 9)
 *   trayBitmap(n)      the tray icon: the app's blue disc, with a red dot when anything is unread
 */

type Rgb = readonly [number, number, number];
const RED: Rgb = [0xd9, 0x30, 0x25];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const BLUE: Rgb = [0x64, 0x92, 0xfe];

/** 3×5 pixel glyphs, one string per row. */
const GLYPHS: Record<string, readonly string[]> = {
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['###', '..#', '###', '#..', '###'],
  '3': ['###', '..#', '.##', '..#', '###'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '###', '..#', '###'],
  '6': ['###', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '.#.', '.#.', '.#.'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '###'],
  '+': ['...', '.#.', '###', '.#.', '...'],
};

class Bitmap {
  readonly data: Buffer;
  constructor(readonly size: number) {
    this.data = Buffer.alloc(size * size * 4); // transparent
  }
  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.size || y >= this.size) return;
    const i = (y * this.size + x) * 4;
    this.data[i] = b;
    this.data[i + 1] = g;
    this.data[i + 2] = r;
    this.data[i + 3] = 0xff;
  }
  disc(cx: number, cy: number, radius: number, colour: Rgb): void {
    for (let y = 0; y < this.size; y++) for (let x = 0; x < this.size; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius ** 2) this.set(x, y, colour);
  }
  /** `text` centred, each glyph pixel `scale` pixels square, one pixel between glyphs. */
  text(text: string, scale: number, colour: Rgb): void {
    const width = (text.length * 4 - 1) * scale;
    const x0 = Math.floor((this.size - width) / 2);
    const y0 = Math.floor((this.size - 5 * scale) / 2);
    [...text].forEach((ch, k) => {
      GLYPHS[ch]?.forEach((row, gy) => {
        [...row].forEach((px, gx) => {
          if (px !== '#') return;
          for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) this.set(x0 + (k * 4 + gx) * scale + dx, y0 + gy * scale + dy, colour);
        });
      });
    });
  }
}

export interface RawImage {
  readonly bitmap: Buffer;
  readonly width: number;
  readonly height: number;
}

/** What the overlay says for `count` unread messages. */
export function overlayText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

export function overlayBitmap(count: number): RawImage {
  const b = new Bitmap(16);
  b.disc(8, 8, 8, RED);
  const text = overlayText(count);
  b.text(text, text.length === 1 ? 2 : 1, WHITE);
  return { bitmap: b.data, width: 16, height: 16 };
}

export function trayBitmap(count: number, size = 32): RawImage {
  const b = new Bitmap(size);
  b.disc(size / 2, size / 2, size / 2 - 1, BLUE);
  if (count > 0) b.disc(size * 0.78, size * 0.22, size * 0.22, RED);
  return { bitmap: b.data, width: size, height: size };
}
