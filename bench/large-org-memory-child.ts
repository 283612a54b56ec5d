/**
 * The engine's memory after sign-in, in its own process (bench/large-org.bench.ts runs it with
 * `--expose-gc`): the modules loaded, then the signed-in account opened offline and the Inbox,
 * the sidebar and the user list answered and held. Prints one JSON line: RSS and JS heap before
 * opening and after (bytes, after a GC each).
 */
import { AccountSession } from '../sync/engine/session.js';
import { memorySample as sample } from './lib.js';

const [dataDir, realmUrl, email] = process.argv.slice(2);
const before = sample();
const session = AccountSession.open({ realmUrl: realmUrl!, email: email!, apiKey: 'unused', dataDir: dataDir!, watchClockJumps: false });
const held = [session.queries.unreadCounts(), session.queries.channels(), session.queries.dmConversations(), session.queries.users()];
const after = sample();
await session.close();
process.stdout.write(`${JSON.stringify({ before, after, held: held.length })}\n`);
