#!/usr/bin/env node
/**
 * `npm run crash-trials -- [--trials 500] [--seed N]`: the outbox crash trials
 * (test/sync/outbox/crash-trials.test.ts) with more trials than CI's 50. Each trial kills the
 * draining worker with SIGKILL one to three times, restarts it, and checks the server afterwards;
 * a different seed gives different workloads and kill points.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { trials: { type: 'string', default: '500' }, seed: { type: 'string' } } });
const trials = Number(values.trials);
if (!Number.isInteger(trials) || trials < 1) throw new Error(`--trials: not a positive count: ${values.trials}`);
if (values.seed !== undefined && !Number.isInteger(Number(values.seed))) throw new Error(`--seed: not an integer: ${values.seed}`);

const root = join(import.meta.dirname, '..');
const env = { ...process.env, CRASH_TRIALS: String(trials), ...(values.seed !== undefined ? { CRASH_SEED: values.seed } : {}) };
const r = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', 'test/sync/outbox/crash-trials.test.ts'], { cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
