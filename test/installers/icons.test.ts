/**
 * The committed icons (resources/): well-formed PNG, ICO and ICNS with the sizes each platform
 * wants, identical in pixels to what scripts/make-icons.mjs renders, and accepted by
 * electron-builder's icon resolver as they are (no conversion, which would download a tool).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, inflateSync } from 'node:zlib';
import { convertIcon } from 'app-builder-lib/out/util/iconConverter.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const RES = join(ROOT, 'resources');
const SET_SIZES = [16, 32, 48, 64, 128, 256, 512];
const tmp = mkdtempSync(join(tmpdir(), 'icons-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Png {
  width: number;
  height: number;
  colourType: number;
  /** Inflated scanlines (filter byte + row), comparable whatever the deflate encoder. */
  raw: Buffer;
}

/** Parses a PNG, checking the signature, every chunk's CRC and the IHDR/IDAT/IEND structure. */
function parsePng(buf: Buffer): Png {
  expect(buf.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const idat: Buffer[] = [];
  const types: string[] = [];
  let ihdr: Buffer | undefined;
  for (let off = 8; off < buf.length; ) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('ascii', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    expect(buf.readUInt32BE(off + 8 + len), `CRC of ${type}`).toBe(crc32(buf.subarray(off + 4, off + 8 + len)));
    types.push(type);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  if (!ihdr) throw new Error('no IHDR');
  const png = { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), colourType: ihdr[9] ?? -1, raw: inflateSync(Buffer.concat(idat)) };
  expect(png.raw.length).toBe(png.height * (png.width * 4 + 1));
  return png;
}

/** ICO directory entries with their embedded images. */
function parseIco(buf: Buffer): Array<{ size: number; image: Buffer }> {
  expect([buf.readUInt16LE(0), buf.readUInt16LE(2)]).toEqual([0, 1]);
  return Array.from({ length: buf.readUInt16LE(4) }, (_, k) => {
    const e = 6 + k * 16;
    const [w, h] = [buf[e] || 256, buf[e + 1] || 256];
    expect(h).toBe(w);
    const [len, off] = [buf.readUInt32LE(e + 8), buf.readUInt32LE(e + 12)];
    expect(off + len).toBeLessThanOrEqual(buf.length);
    return { size: w, image: buf.subarray(off, off + len) };
  });
}

/** ICNS chunks (type -> payload); the lengths must add up exactly to the file. */
function parseIcns(buf: Buffer): Map<string, Buffer> {
  expect(buf.toString('ascii', 0, 4)).toBe('icns');
  expect(buf.readUInt32BE(4)).toBe(buf.length);
  const chunks = new Map<string, Buffer>();
  let off = 8;
  while (off < buf.length) {
    const len = buf.readUInt32BE(off + 4);
    expect(len).toBeGreaterThan(8);
    chunks.set(buf.toString('ascii', off, off + 4), buf.subarray(off + 8, off + len));
    off += len;
  }
  expect(off).toBe(buf.length);
  return chunks;
}

const read = (...p: string[]): Buffer => readFileSync(join(RES, ...p));

describe('app icons', () => {
  it('icon.png is a 1024x1024 RGBA PNG, and the Linux set has every size up to 512x512', () => {
    expect(parsePng(read('icon.png'))).toMatchObject({ width: 1024, height: 1024, colourType: 6 });
    for (const s of SET_SIZES) expect(parsePng(read('icons', `${s}x${s}.png`))).toMatchObject({ width: s, height: s, colourType: 6 });
  });

  it('icon.ico holds PNG images from 16 to 256 pixels, each of its declared size', () => {
    const entries = parseIco(read('icon.ico'));
    expect(entries.map((e) => e.size)).toEqual([16, 32, 48, 64, 128, 256]);
    for (const { size, image } of entries) expect(parsePng(image)).toMatchObject({ width: size, height: size });
  });

  it('icon.icns holds PNG chunks from 32 to 1024 pixels (ic10 is the 1024 Retina image)', () => {
    const chunks = parseIcns(read('icon.icns'));
    const expected: Record<string, number> = { ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
    expect([...chunks.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [type, payload] of chunks) expect(parsePng(payload), type).toMatchObject({ width: expected[type], height: expected[type] });
  });

  it('the committed icons are what scripts/make-icons.mjs renders (pixel for pixel)', async () => {
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'make-icons.mjs'), tmp], { timeout: 60_000 });
    const fresh = (...p: string[]): Buffer => readFileSync(join(tmp, ...p));
    for (const p of [['icon.png'], ...SET_SIZES.map((s) => ['icons', `${s}x${s}.png`])]) {
      expect(parsePng(read(...p)).raw.equals(parsePng(fresh(...p)).raw), p.join('/')).toBe(true);
    }
    const pixels = (ico: Buffer): Buffer[] => parseIco(ico).map((e) => parsePng(e.image).raw);
    expect(pixels(read('icon.ico'))).toEqual(pixels(fresh('icon.ico')));
  });

  it("electron-builder's resolver takes them as they are, without converting", async () => {
    // If a conversion were needed, electron-builder would download its icon tool: point it at an
    // empty directory instead, so that case fails here rather than touching the network.
    const saved = process.env.ELECTRON_BUILDER_ICONS_TOOLSET_DIR;
    process.env.ELECTRON_BUILDER_ICONS_TOOLSET_DIR = mkdtempSync(join(tmp, 'no-tool-'));
    try {
      const resolve = (sources: string[], format: 'icns' | 'ico' | 'set') =>
        convertIcon({ sources, fallbackSources: [], roots: [RES, ROOT], format, outDir: join(tmp, `out-${format}`) });
      expect(await resolve(['icon.icns'], 'icns')).toMatchObject({ isFallback: false, icons: [{ file: join(RES, 'icon.icns') }] });
      expect(await resolve(['icon.ico'], 'ico')).toMatchObject({ isFallback: false, icons: [{ file: join(RES, 'icon.ico'), size: 256 }] });
      const set = await resolve(['icons'], 'set');
      expect(set.isFallback).toBe(false);
      expect(set.icons.map((i) => i.size)).toEqual(SET_SIZES);
      expect(set.icons.every((i) => i.file.startsWith(join(RES, 'icons')))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.ELECTRON_BUILDER_ICONS_TOOLSET_DIR;
      else process.env.ELECTRON_BUILDER_ICONS_TOOLSET_DIR = saved;
    }
  });
});
