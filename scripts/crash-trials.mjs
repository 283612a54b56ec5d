#!/usr/bin/env node
/**
 * `npm run crash-trials -- [--trials 500] [--fault-trials 200] [--seed N]`: the outbox crash trials
 * (test/sync/outbox/crash-trials.test.ts) with more trials than CI's 30 (and 12 with disk faults).
 * Each trial kills the draining worker with SIGKILL one to three times, restarts it, and checks the
 * server afterwards; a fault trial also refuses random writes with SQLITE_FULL or SQLITE_IOERR. A
 * different seed gives different workloads, kill points and faults.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '500' }, 'fault-trials': { type: 'string', default: '200' }, seed: { type: 'string' } } });
const trials = Number(values.trials);
if (!Number.isInteger(trials) || trials < 1) throw new Error(`--trials: not a positive count: ${values.trials}`);
const faultTrials = Number(values['fault-trials']);
if (!Number.isInteger(faultTrials) || faultTrials < 0) throw new Error(`--fault-trials: not a count: ${values['fault-trials']}`);
if (values.seed !== undefined && !Number.isInteger(Number(values.seed))) throw new Error(`--seed: not an integer: ${values.seed}`);

const root = join(import.meta.dirname, '..');
const env = { ...process.env, CRASH_TRIALS: String(trials), CRASH_FAULT_TRIALS: String(faultTrials), ...(values.seed !== undefined ? { CRASH_SEED: values.seed } : {}) };
const r = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', 'test/sync/outbox/crash-trials.test.ts'], { cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
