/**
 * Uploads (issue #26 item 1): a 10 MB file queued as `upload_file` and drained, against the same
 * file uploaded by one plain HTTP request (`POST /user_uploads`, the same multipart body, the same
 * keep-alive connection), in turns, in the same run, to the reference server on loopback.
 *
 *  - enqueue: the copy into the account's data directory (written aside, fsynced, renamed) and the
 *    row, in one user action, against the plain upload (reported: what the user waits for before
 *    the composer answers, offline or not);
 *  - enqueue + drain: that, then the pusher's request, until the row is done (target: at most
 *    1.5x the plain upload: the outbox's copy and bookkeeping on top of the request).
 *
 * What is left on top of the request is mostly fixed milliseconds (the copy's fsync), so the ratio
 * swings with how fast the loopback upload happens to be on a loaded machine: 15 runs, not 7.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ApiConnection, silentLogger, uploadFile } from '../sync/api/index.js';
import { openLocalDb, type LocalDb } from '../sync/db/open.js';
import { landedUploadUrls } from '../sync/db/queries/outbox-uploads.js';
import { silentEngineLogger, systemClock } from '../sync/base/seams.js';
import { KindRegistry, NO_CONTEXT, runtimeKind } from '../sync/outbox/kinds.js';
import { uploadFileKind } from '../sync/outbox/mutations/upload-file.js';
import { OutboxPusher } from '../sync/outbox/pusher.js';
import { OutboxStore } from '../sync/outbox/store.js';
import { OutboxFiles } from '../sync/uploads/outbox-files.js';
import { startServer } from '../server/index.js';
import { check, interleave, printChecks } from './lib.js';

const SUITE = 'uploads';
const SIZE = 10 * 1024 * 1024;

export async function benchUploads(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'uploads-bench-'));
  const server = await startServer({ demo: true, config: { rateLimit: false }, schedulerIntervalMs: 0 });
  const email = 'iago@example.com';
  const conn = new ApiConnection({ realmUrl: server.url, email, apiKey: server.apiKey(email), logger: silentLogger, timeoutMs: 60_000 });
  const data = randomBytes(SIZE);
  const kind = runtimeKind(uploadFileKind);
  const db: LocalDb = openLocalDb(join(dir, 'account.db'));
  const store = new OutboxStore(db, new KindRegistry([kind]), systemClock);
  const files = new OutboxFiles(join(dir, 'account.outbox-files'));
  const context = {
    ...NO_CONTEXT,
    uploads: {
      read: (id: string) => files.read(id),
      urlOf: (tmp: string) => store.resolvedTempId(tmp),
      discarded: () => false,
      landedUrls: () => landedUploadUrls(db),
      keep: () => undefined,
    },
  };
  let n = 0;
  const enqueue = () => {
    const file = files.stage(data);
    const args = { upload: store.newTempId(), file, filename: `bench-${n++}.bin`, mime_type: 'application/octet-stream', size: data.length };
    return db.transaction(() => store.enqueue(kind, args, { enqueued_at: Math.floor(Date.now() / 1000) }))().id;
  };
  const fileOf = (args: unknown) => (args && typeof args === 'object' && 'file' in args ? String(args.file) : '');
  const drain = async (id: number) => {
    const pusher = new OutboxPusher({ store, conn, seams: { logger: silentEngineLogger }, concurrency: 4, context });
    pusher.start();
    await pusher.idle();
    await pusher.stop();
    const row = store.get(id);
    if (row?.state !== 'done') throw new Error(`upload row ${id} is ${row?.state}`);
    files.remove(fileOf(row.args));
  };
  // Rows only enqueued are discarded before the next turn (untimed), so no drain sends them.
  const left: number[] = [];
  const tidy = () => {
    for (const id of left.splice(0)) files.remove(fileOf(store.discard(id).args));
  };
  try {
    const [plain, enq, both] = await interleave(
      [
        { name: 'POST /user_uploads, 10 MB, one request', setup: tidy, fn: () => uploadFile(conn, { filename: `plain-${n++}.bin`, mimeType: 'application/octet-stream', data }) },
        { name: 'upload_file enqueue (copy + row), 10 MB', setup: tidy, fn: () => void left.push(enqueue()) },
        { name: 'upload_file enqueue + drain, 10 MB', setup: tidy, fn: () => drain(enqueue()) },
      ],
      { runs: 15, warmup: 2 },
    );
    tidy();
    printChecks('Uploads: a 10 MB file queued and drained, against one plain upload', [
      check(SUITE, enq!, plain!, 'report', { name: 'enqueue (copy into the data directory, fsynced, and the row)' }),
      check(SUITE, both!, plain!, { max: 1.5 }, { name: 'enqueue + drain until done' }),
    ]);
  } finally {
    await conn.close();
    await server.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
