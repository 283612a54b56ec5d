/**
 * The project's `.npmrc` holds only keys npm knows (an unknown one makes every npm command warn):
 * building better-sqlite3 from source is asked for in the environment where it is wanted (CI).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('npm configuration', () => {
  it('npm reads the project .npmrc without a warning about an unknown key', { timeout: 60_000 }, () => {
    const r = spawnSync('npm', ['config', 'get', 'fund'], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_build_from_source: undefined } });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('false');
    expect(r.stderr).not.toMatch(/Unknown (project|user|env) config/);
  });

  it('CI still builds better-sqlite3 from source, through the environment of its npm ci alone', () => {
    const ci = readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm_config_build_from_source=true npm ci\b/m);
    expect(ci).not.toMatch(/^export npm_config_build_from_source/m);
    const keys = readFileSync(path.join(root, '.npmrc'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
      .map((l) => l.split('=')[0]!.trim());
    expect(keys).not.toContain('build-from-source');
    expect(execFileSync('bash', ['-n', path.join(root, '.ci/run')]).toString()).toBe('');
  });
});
