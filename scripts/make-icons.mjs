#!/usr/bin/env node
/**
 * Renders the app icon and writes every format the installers need into resources/, with no
 * dependency beyond node:zlib, so the icons can be regenerated offline:
 *   icon.png             1024x1024 master
 *   icons/NxN.png        the Linux hicolor set (16..512), used as is by AppImage and deb
 *   icon.ico             Windows: PNG-compressed entries 16..256 (Vista+ reads PNG entries)
 *   icon.icns            macOS: PNG chunks ic07..ic14 (10.7+ reads PNG chunks)
 * Shipping ready-made .ico/.icns/set means electron-builder never needs its icon converter, which
 * it would download at build time.
 *
 * The drawing: a rounded blue-to-teal square, a white speech bubble with three dots, and an amber
 * badge for "written offline, not yet sent". Shapes are signed distance functions, antialiased by
 * their distance in pixels, so every size is rendered crisply from the same description.
 *
 * Usage: node scripts/make-icons.mjs [outDir]   (default: resources/)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const outDir = process.argv[2] ?? join(import.meta.dirname, '..', 'resources');

// ---- shapes (coordinates in the unit square, y down) ----

function sdRoundBox(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  const ox = Math.max(qx, 0);
  const oy = Math.max(qy, 0);
  return Math.hypot(ox, oy) + Math.min(Math.max(qx, qy), 0) - r;
}

function sdCircle(x, y, cx, cy, r) {
  return Math.hypot(x - cx, y - cy) - r;
}

/** Exact distance to a triangle (Inigo Quilez's formulation). */
function sdTriangle(px, py, [ax, ay], [bx, by], [cx, cy]) {
  const edges = [
    [ax, ay, bx, by],
    [bx, by, cx, cy],
    [cx, cy, ax, ay],
  ];
  let d = Infinity;
  let s = 1;
  const orient = Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  for (const [x0, y0, x1, y1] of edges) {
    const ex = x1 - x0;
    const ey = y1 - y0;
    const wx = px - x0;
    const wy = py - y0;
    const t = Math.min(Math.max((wx * ex + wy * ey) / (ex * ex + ey * ey), 0), 1);
    d = Math.min(d, Math.hypot(wx - ex * t, wy - ey * t));
    if (orient * (ex * wy - ey * wx) < 0) s = -1;
  }
  return s > 0 ? -d : d;
}

const mix = (a, b, t) => a + (b - a) * t;
const TOP = [59, 130, 246]; // blue
const BOTTOM = [13, 148, 136]; // teal
const gradient = (y) => TOP.map((c, i) => mix(c, BOTTOM[i], Math.min(Math.max((y - 0.1) / 0.8, 0), 1)));
const WHITE = [255, 255, 255];
const AMBER = [245, 158, 11];

/** Layers, back to front: [signed distance, colour at that point]. */
function layers(x, y) {
  const bubble = Math.min(
    sdRoundBox(x, y, 0.5, 0.45, 0.26, 0.18, 0.09),
    sdTriangle(x, y, [0.33, 0.55], [0.27, 0.73], [0.47, 0.6]),
  );
  const dots = Math.min(sdCircle(x, y, 0.39, 0.45, 0.038), sdCircle(x, y, 0.5, 0.45, 0.038), sdCircle(x, y, 0.61, 0.45, 0.038));
  return [
    [sdRoundBox(x, y, 0.5, 0.5, 0.41, 0.41, 0.18), gradient(y)],
    [bubble, WHITE],
    [dots, gradient(y - 0.05)],
    [sdCircle(x, y, 0.72, 0.7, 0.115), WHITE],
    [sdCircle(x, y, 0.72, 0.7, 0.085), AMBER],
  ];
}

function render(size) {
  const rgba = Buffer.alloc(size * size * 4);
  const px = 1 / size;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = (i + 0.5) * px;
      const y = (j + 0.5) * px;
      // Premultiplied "over" compositing of each layer's antialiased coverage.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const [d, [cr, cg, cb]] of layers(x, y)) {
        const cov = Math.min(Math.max(0.5 - d / px, 0), 1);
        r = cr * cov + r * (1 - cov);
        g = cg * cov + g * (1 - cov);
        b = cb * cov + b * (1 - cov);
        a = cov + a * (1 - cov);
      }
      const o = (j * size + i) * 4;
      rgba[o] = a > 0 ? Math.round(r / a) : 0;
      rgba[o + 1] = a > 0 ? Math.round(g / a) : 0;
      rgba[o + 2] = a > 0 ? Math.round(b / a) : 0;
      rgba[o + 3] = Math.round(a * 255);
    }
  }
  return rgba;
}

// ---- encoders ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** 8-bit RGBA, non-interlaced, filter 0 on every row. */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let j = 0; j < size; j++) rgba.copy(raw, j * (size * 4 + 1) + 1, j * size * 4, (j + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** ICO with PNG payloads; a width/height byte of 0 means 256. */
function encodeIco(pngs) {
  const header = Buffer.alloc(6 + pngs.length * 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(([size, png], k) => {
    const e = 6 + k * 16;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map(([, png]) => png)]);
}

/** ICNS: 'icns' + total length, then (type, length incl. 8-byte header, PNG) chunks. */
function encodeIcns(chunks) {
  const parts = chunks.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

// ---- output ----

const png = new Map();
for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) png.set(size, encodePng(size, render(size)));
const get = (size) => png.get(size);

mkdirSync(join(outDir, 'icons'), { recursive: true });
writeFileSync(join(outDir, 'icon.png'), get(1024));
for (const size of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(outDir, 'icons', `${size}x${size}.png`), get(size));
writeFileSync(join(outDir, 'icon.ico'), encodeIco([16, 32, 48, 64, 128, 256].map((s) => [s, get(s)])));
// ic11/12/13/14 are the @2x (Retina) variants of 16/32/128/256.
writeFileSync(
  join(outDir, 'icon.icns'),
  encodeIcns([
    ['ic07', get(128)],
    ['ic08', get(256)],
    ['ic09', get(512)],
    ['ic10', get(1024)],
    ['ic11', get(32)],
    ['ic12', get(64)],
    ['ic13', get(256)],
    ['ic14', get(512)],
  ]),
);
console.log(`icons written to ${outDir}`);
