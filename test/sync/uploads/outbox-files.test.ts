/**
 * The copies of files queued for upload (sync/uploads/outbox-files.ts): written to disk before
 * `stage` returns; the ones staged last also kept in memory (up to a bound), so sending one soon
 * after attaching it does not read it back; older ones read from disk; a removed or swept copy
 * leaves both.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutboxFiles } from '../../../sync/uploads/outbox-files.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('OutboxFiles on disk', () => {
  it('a staged copy is on disk before stage returns; read soon after, it comes from memory', async () => {
    const files = new OutboxFiles(join(dir, 'copies'));
    const data = bytes(1000, 1);
    const id = files.stage(data);
    expect(readdirSync(join(dir, 'copies'))).toEqual([id]);
    expect(readFileSync(join(dir, 'copies', id)).equals(data)).toBe(true);
    // Changed behind its back: the read answers the bytes staged, so it did not read the disk.
    writeFileSync(join(dir, 'copies', id), bytes(1000, 2));
    expect((await files.read(id)).equals(data)).toBe(true);
  });

  it('past the bound the oldest copies are read from disk, and one over the bound is never held', async () => {
    const files = new OutboxFiles(join(dir, 'copies'), 10);
    const a = files.stage(bytes(6, 1));
    const b = files.stage(bytes(6, 2));
    const big = bytes(3 * 1024 * 1024, 3);
    big.fill(4, 1024 * 1024);
    const c = files.stage(big);
    for (const id of [a, b]) writeFileSync(join(dir, 'copies', id), bytes(6, 9));
    expect((await files.read(a)).equals(bytes(6, 9))).toBe(true);
    expect((await files.read(b)).equals(bytes(6, 2))).toBe(true);
    expect((await files.read(c)).equals(big)).toBe(true);
  });

  it('a removed or swept copy leaves memory and disk', async () => {
    const files = new OutboxFiles(join(dir, 'copies'));
    const [a, b, kept] = [files.stage(bytes(5, 1)), files.stage(bytes(5, 2)), files.stage(bytes(5, 3))];
    files.remove(a);
    await expect(files.read(a)).rejects.toThrow();
    await vi.waitFor(() => expect(existsSync(join(dir, 'copies', a))).toBe(false));
    expect(files.sweep(new Set([kept]))).toBe(1);
    await expect(files.read(b)).rejects.toThrow();
    expect(readdirSync(join(dir, 'copies'))).toEqual([kept]);
    expect((await files.read(kept)).equals(bytes(5, 3))).toBe(true);
  });
});
