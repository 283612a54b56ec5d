/**
 * disk-full.test.ts's child: the real browser-mode host (the same `startBrowserHost` the CLI runs),
 * in its own process so its CPU time and its log lines are its own, and a spinning engine cannot
 * stall the test. Usage: `node --import tsx disk-full-host.ts <dataDir> <rendererDir>`.
 *
 * Prints `open <url>` once listening; the engine's warnings and errors go to stderr, one line each.
 * Reads commands on stdin, one a line, and answers `ok <command> <detail>` (or `err <command> ...`):
 *   checkpoint   copy the account database's log back and truncate it (so the next write needs
 *                fresh room on the disk, as it would after a quiet spell)
 *   limit        SQLite's own limit instead of a small disk: `max_page_count` = the pages in use,
 *                and the free pages filled (a test-only table)
 *   unlimit      lift it again and drop the filler
 */
import { createInterface } from 'node:readline';
import { startBrowserHost } from '../../host/browser/server.js';

const [dataDir, rendererDir] = process.argv.slice(2);
if (dataDir === undefined || rendererDir === undefined) {
  process.stderr.write('usage: disk-full-host <dataDir> <rendererDir>\n');
  process.exit(2);
}

const host = await startBrowserHost({ dataDir, rendererDir, port: 0, log: (line) => process.stderr.write(`${line.replace(/\n/g, ' ')}\n`) });
process.stdout.write(`open ${host.url}\n`);

createInterface({ input: process.stdin }).on('line', (cmd) => {
  const db = host.service.activeSession?.db;
  try {
    if (!db) throw new Error('no account is open');
    if (cmd === 'checkpoint') process.stdout.write(`ok checkpoint ${JSON.stringify(db.pragma('wal_checkpoint(TRUNCATE)'))}\n`);
    else if (cmd === 'limit') {
      // The database may not grow, and what room it has left (free pages) is taken by a filler.
      db.exec('CREATE TABLE IF NOT EXISTS disk_filler (b BLOB)');
      const pages = Number(db.pragma('page_count', { simple: true }));
      db.pragma(`max_page_count = ${pages}`);
      let filled = 0;
      for (let size = 1 << 16; size >= 16; size >>= 1) {
        for (;;) {
          try {
            db.prepare('INSERT INTO disk_filler (b) VALUES (zeroblob(?))').run(size);
            filled += size;
          } catch {
            break;
          }
        }
      }
      process.stdout.write(`ok limit ${pages} pages, ${filled} bytes filled\n`);
    } else if (cmd === 'unlimit') {
      db.pragma('max_page_count = 1073741823');
      db.exec('DROP TABLE IF EXISTS disk_filler');
      process.stdout.write('ok unlimit\n');
    }
    else throw new Error('unknown command');
  } catch (e) {
    process.stdout.write(`err ${cmd} ${e instanceof Error ? e.message : String(e)}\n`);
  }
});

const stop = () => {
  void host.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
