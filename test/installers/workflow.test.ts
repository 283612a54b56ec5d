/**
 * .github/workflows/release.yml cannot run here; this checks its shape: tag and manual triggers,
 * the three OS runners, an Electron download allowed, unsigned builds when secrets are absent, and
 * a release job that only runs for tags, with the one write permission it needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string;
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { os: string[] } };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { tags: string[] }; workflow_dispatch: unknown };
  permissions: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
const wf: Workflow = parse(text);
const job = (name: string): Job => {
  const j = wf.jobs[name];
  if (!j) throw new Error(`no job ${name}`);
  return j;
};

describe('release workflow', () => {
  it('runs on v* tags and by hand, read-only by default', () => {
    expect(wf.on.push.tags).toEqual(['v*']);
    expect('workflow_dispatch' in wf.on).toBe(true);
    expect(wf.permissions).toEqual({ contents: 'read' });
  });

  it('builds on macOS, Windows and Linux with Node 20 and npm run dist', () => {
    const build = job('build');
    expect(build.strategy?.matrix.os.sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    expect(build.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
    expect(build.steps.some((s) => s.run === 'npm ci')).toBe(true);
    // The deb's Homepage: the repository the workflow runs in (electron-builder refuses a deb without one).
    expect(build.steps.some((s) => s.run === 'npm run dist -- --publish never -c.extraMetadata.homepage=${{ github.server_url }}/${{ github.repository }}')).toBe(true);
    expect(build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.path).toMatch(/\.dmg[\s\S]*\.exe[\s\S]*\.AppImage[\s\S]*\.deb/);
    // The auto-update feed's files (main/updater.ts): the release's assets are a generic feed.
    expect(build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.path).toMatch(/latest\*\.yml[\s\S]*\.blockmap/);
  });

  it('lets the runners download Electron (unlike CI)', () => {
    expect(text).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
  });

  it('passes signing credentials only through the optional step, never inline', () => {
    const build = job('build');
    const signing = build.steps.find((s) => s.env?.MAC_CSC_LINK !== undefined);
    expect(signing?.run).toContain('CSC_IDENTITY_AUTO_DISCOVERY false');
    expect(Object.values(signing?.env ?? {}).every((v) => /^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/.test(v))).toBe(true);
    // Only that step sees secrets; the dist step reads what it exported, if anything.
    const withSecrets = build.steps.filter((s) => JSON.stringify(s).includes('secrets.'));
    expect(withSecrets).toEqual([signing]);
  });

  it('attaches the installers to a release only for tags, with contents: write', () => {
    const release = job('release');
    expect(release.needs).toBe('build');
    expect(release.if).toContain("startsWith(github.ref, 'refs/tags/v')");
    expect(release.permissions).toEqual({ contents: 'write' });
    expect(release.steps.some((s) => s.uses?.startsWith('actions/download-artifact@'))).toBe(true);
    expect(release.steps.some((s) => s.run?.includes('gh release create'))).toBe(true);
  });
});
