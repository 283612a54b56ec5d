/**
 * The demo realm's custom emoji: small PNGs drawn here (a coloured disc with a lighter ring), so the
 * demo needs no image files. Deterministic: the same bytes every run.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A `size`×`size` RGBA PNG whose pixel at (x, y) is `pixel(x, y)`. */
function rgbaPng(size: number, pixel: (x: number, y: number) => readonly number[]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A `size`×`size` RGBA PNG: a disc of `rgb` with a white ring, transparent outside. */
export function discPng(rgb: readonly [number, number, number], size = 32): Buffer {
  const mid = (size - 1) / 2;
  return rgbaPng(size, (x, y) => {
    const d = Math.hypot(x - mid, y - mid) / (size / 2);
    const ring = d > 0.55 && d < 0.7;
    return d > 1 ? [0, 0, 0, 0] : ring ? [255, 255, 255, 255] : [...rgb, 255];
  });
}

/** A demo user's uploaded avatar: a light head and shoulders on a square of `rgb`. */
export function avatarPng(rgb: readonly [number, number, number], size = 64): Buffer {
  return rgbaPng(size, (x, y) => {
    const head = Math.hypot(x - size / 2, y - size * 0.4) < size * 0.2;
    const body = Math.hypot((x - size / 2) / (size * 0.36), (y - size) / (size * 0.36)) < 1;
    return head || body ? [250, 246, 238, 255] : [...rgb, 255];
  });
}
