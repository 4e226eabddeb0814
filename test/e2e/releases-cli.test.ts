// hoba diff and hoba release through the built CLI, and the release-version rule on a copy: hoba release
// refuses to change a recorded release, records a new one only under a version bumped enough, and hoba
// validate says which bump changed content needs. The releases themselves: test/unit/releases.test.ts.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseDocument } from 'yaml';
import { diffRegistries, releaseVersionProblems, type RegistryDiff } from '../../src/analysis/diff.ts';
import { loadAtlas } from '../../src/registry/load.ts';
import type { RegistryData } from '../../src/registry/registry.ts';
import { bumpSatisfies, nextVersion } from '../../src/registry/release-model.ts';
import { loadReleases, readReleaseData, readReleaseIndex, type RecordedRelease } from '../../src/registry/releases.ts';
import { AtlasCopy, ROOT } from '../helpers.ts';
import { hoba } from '../dist.ts';

/** A copy of a checkout's content and its releases/ that a test may change and record into. */
class ReleasedCopy extends AtlasCopy {
  constructor(from = ROOT) {
    super(from);
    cpSync(join(from, 'releases'), join(this.dir, 'releases'), { recursive: true });
    cpSync(join(from, 'CHANGELOG.md'), join(this.dir, 'CHANGELOG.md'));
  }

  /** Sets a field of content/atlas.yaml. */
  manifest(key: string, value: string): this {
    const file = join(this.dir, 'content', 'atlas.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.set(key, value);
    writeFileSync(file, doc.toString());
    return this;
  }

  /** Removes an entity's file. */
  delete(id: string): this {
    rmSync(this.fileOf(id));
    return this;
  }

  /** Adds a copy of an entity under a new ID (same kind, same references). */
  cloneAs(id: string, newId: string): this {
    const text = readFileSync(this.fileOf(id), 'utf8').replace(new RegExp(`^id: ${id}$`, 'm'), `id: ${newId}`);
    writeFileSync(join(this.fileOf(id), '..', `${newId}-copy.yaml`), text);
    return this;
  }

  data(): RegistryData {
    const reg = loadAtlas(this.dir).registry;
    return { ...reg.toData(), edges: [...reg.edges] };
  }
}

/**
 * A copy of the checkout whose content is its latest recorded release: the checkout's content, recorded
 * in the copy (under the checkout's registry_version, or the version its changes need when that is not
 * bumped enough) unless it is its latest release already.
 */
function releasedBaseline(): ReleasedCopy {
  const c = new ReleasedCopy();
  const latest = readReleaseIndex(c.dir).releases.at(-1)!;
  const diff = diffRegistries(readReleaseData(c.dir, latest), c.data());
  const version = loadAtlas(c.dir).registry.version;
  if (diff.required_bump === 'none' && version === latest.version) return c;
  if (!bumpSatisfies(latest.version, version, diff.required_bump) || version === latest.version) {
    c.manifest('registry_version', nextVersion(latest.version, diff.required_bump === 'none' ? 'patch' : diff.required_bump));
  }
  const r = hoba(['release', '--dir', c.dir, '--json']);
  assert.equal(r.status, 0, `recording the checkout's content in a copy: ${r.stdout}${r.stderr}`);
  assert.deepEqual(diffRegistries(readReleaseData(c.dir, readReleaseIndex(c.dir).releases.at(-1)!), c.data()).required_bump, 'none');
  return c;
}

const index = readReleaseIndex(ROOT);
const dataOf = (version: string) => readReleaseData(ROOT, index.releases.find((r) => r.version === version)!);

describe('hoba diff 0.2.0 0.3.0', () => {
  let diff: RegistryDiff;
  before(() => {
    diff = diffRegistries(dataOf('0.2.0'), dataOf('0.3.0'));
  });

  test('the command prints the summary as text and the whole diff with --json', () => {
    const text = hoba(['diff', '0.2.0', '0.3.0']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Changes from 0\.2\.0 to 0\.3\.0 \(schema 1\.2\.0 → 1\.3\.0\)/);
    assert.match(text.stdout, /B-007 .*\n\s+title: "Technical assessment" → /);
    assert.match(text.stdout, /Removed \(1\)[\s\S]*E-072/);
    assert.match(text.stdout, /0\.3\.0 is a minor bump: enough\./);
    const json = hoba(['diff', '0.2.0', '0.3.0', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as RegistryDiff & { registry_version: string };
    assert.equal(parsed.registry_version, '0.3.0');
    assert.deepEqual(parsed.counts, diff.counts);
    assert.deepEqual(parsed.removed, diff.removed);
  });

  test('an unknown version is a usage error naming the recorded ones', () => {
    const r = hoba(['diff', '0.2.0', '9.9.9', '--json']);
    assert.equal(r.status, 2);
    const err = JSON.parse(r.stdout) as { code: string; allowed: string[] };
    assert.equal(err.code, 'invalid-argument');
    assert.ok(err.allowed.includes('0.2.0') && err.allowed.includes('current'));
  });
});

describe('hoba release and the release-version rule, on a copy', () => {
  // Every copy starts from a baseline whose content is its latest recorded release, whatever the state of
  // the checkout (released, or edited since, with or without its version bumped).
  let baseline: ReleasedCopy;
  const copies: ReleasedCopy[] = [];
  const copy = () => {
    const c = new ReleasedCopy(baseline.dir);
    copies.push(c);
    return c;
  };
  before(() => {
    baseline = releasedBaseline();
    copies.push(baseline);
  });
  after(() =>
    copies.forEach((c) => {
      c.dispose();
    }),
  );
  const recorded = () => readReleaseIndex(baseline.dir).releases;
  const latest = () => recorded().at(-1)!.version;
  const latestData = () => readReleaseData(baseline.dir, recorded().at(-1)!);

  test('an edit without a version bump: validate --strict fails and names the patch bump', () => {
    const c = copy().set('B-007', ['aliases'], ['a new alias for testing']);
    const problems = releaseVersionProblems(c.data(), latestData());
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.rule, 'release-version');
    assert.match(problems[0]!.message, /not bumped: 1 entity edited\. That needs a patch bump: set registry_version to \d+\.\d+\.1/);
    const r = hoba(['validate', '--strict', '--no-mirror', '--json', '--dir', c.dir]);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as { problems: Array<{ rule: string; severity: string; message: string }> };
    const found = report.problems.filter((p) => p.rule === 'release-version');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.match(found[0]!.message, /patch bump/);
  });

  test('a new entity under a patch bump needs a minor one; a removed ID needs a major one (minor while 0.x)', () => {
    const added = copy().cloneAs('M-001', 'M-900').manifest('registry_version', nextVersion(latest(), 'patch'));
    const [minor] = releaseVersionProblems(added.data(), latestData());
    assert.match(minor!.message, /too small.*1 new entity \(M-900\).*needs a minor bump/);
    const removed = copy().delete('E-001');
    const [major] = releaseVersionProblems(removed.data(), latestData());
    assert.match(major!.message, /1 ID removed \(E-001\)/);
    assert.match(major!.message, new RegExp(`set registry_version to ${nextVersion(latest(), 'major').replace(/\./g, '\\.')}`));
    // Bumped enough: no problem.
    const bumped = copy().cloneAs('M-001', 'M-900').manifest('registry_version', nextVersion(latest(), 'minor'));
    assert.deepEqual(releaseVersionProblems(bumped.data(), latestData()), []);
  });

  test('recording: the same content is a no-op, different content under the same version is refused, --replace re-records', () => {
    const c = copy();
    const same = hoba(['release', '--dir', c.dir, '--json']);
    assert.equal(same.status, 0, same.stderr);
    assert.equal((JSON.parse(same.stdout) as { status: string }).status, 'unchanged');
    c.set('B-007', ['aliases'], ['a new alias for testing']);
    const refused = hoba(['release', '--dir', c.dir]);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /already recorded, with different content \(1 changed.*set registry_version to \d+\.\d+\.1.*--replace/s);
    const replaced = hoba(['release', '--replace', '--dir', c.dir, '--json']);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.equal((JSON.parse(replaced.stdout) as { status: string }).status, 'replaced');
    assert.deepEqual(releaseVersionProblems(c.data(), readReleaseData(c.dir, readReleaseIndex(c.dir).releases.at(-1)!)), []);
    const check = hoba(['release', '--check', '--dir', c.dir]);
    assert.equal(check.status, 0, check.stdout);
  });

  test('recording a new version: checked against the bump, added to the index, the changelog and the site', () => {
    const c = copy().cloneAs('M-001', 'M-900');
    c.manifest('registry_version', nextVersion(latest(), 'patch'));
    const small = hoba(['release', '--dir', c.dir]);
    assert.equal(small.status, 1);
    assert.match(small.stderr, /too small a step.*needs a minor bump/s);
    const next = nextVersion(latest(), 'minor');
    c.manifest('registry_version', next);
    const r = hoba(['release', '--dir', c.dir]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`recorded release ${next.replace(/\./g, '\\.')}`));
    const before = recorded().map((x) => x.version);
    assert.deepEqual(
      readReleaseIndex(c.dir).releases.map((x) => x.version),
      [...before, next],
    );
    const changelog = readFileSync(join(c.dir, 'CHANGELOG.md'), 'utf8');
    assert.match(changelog, new RegExp(`## ${next.replace(/\./g, '\\.')} — [\\s\\S]*### Added \\(1\\)[\\s\\S]*M-900`));
    assert.ok(changelog.indexOf(`## ${next}`) < changelog.indexOf(`## ${latest()}`), 'newest first');
    const releases: RecordedRelease[] = loadReleases(c.dir);
    assert.equal(releases.length, before.length + 1);
  });

  test('a damaged release is refused by name, never silently rebuilt', () => {
    const c = copy();
    const record = readReleaseIndex(c.dir).releases[0]!;
    const path = join(c.dir, 'releases', record.data.file);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"Hiring Obstacles', '"Hiring  Obstacles'));
    const check = hoba(['release', '--check', '--dir', c.dir]);
    assert.equal(check.status, 1);
    assert.match(check.stdout, new RegExp(`${record.version.replace(/\./g, '\\.')}: .*does not match the SHA-256 recorded`));
    const build = hoba(['build', '--dir', c.dir, '--out', join(c.dir, '_site')]);
    assert.equal(build.status, 1);
    assert.match(build.stderr, /does not match the SHA-256 recorded for release/);
  });
});
