// The lock and the checks of src/publish/site-dir.ts in-process (issue #27, items 2, 10, 11); the builds,
// kills and concurrent runs through the CLI are in test/e2e/site-swap.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BuildLocked, holdsOnlyItsSite, lockSite, markerOf, outDirRefusal, SITE_MARKER } from '../../src/publish/site-dir.ts';

const work = mkdtempSync(join(tmpdir(), 'hoba-lock-'));
after(() => rmSync(work, { recursive: true, force: true }));
const lockOf = (pid: number) => JSON.stringify({ pid, host: hostname(), started: '2026-11-27T00:00:00.000Z' });

test('a free lock is taken and released; taken again in the same process, it is released with the last release', () => {
  const out = join(work, 'free');
  const release = lockSite(out);
  assert.equal((JSON.parse(readFileSync(`${out}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
  const again = lockSite(out);
  again();
  assert.ok(existsSync(`${out}.lock`), 'still held');
  release();
  assert.equal(existsSync(`${out}.lock`), false);
});

test('a lock held by a live process is refused with BuildLocked naming it; one left by a dead process, or naming this process (a pid come round again), is taken over', async () => {
  const out = join(work, 'held');
  const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    writeFileSync(`${out}.lock`, lockOf(live.pid!));
    assert.throws(
      () => lockSite(out),
      (err: Error) => err instanceof BuildLocked && err.message.includes(`process ${live.pid}, since 2026-11-27`),
    );
  } finally {
    live.kill();
    await new Promise((done) => live.once('exit', done));
  }
  for (const pid of [live.pid!, process.pid]) {
    writeFileSync(`${out}.lock`, lockOf(pid));
    const release = lockSite(out);
    assert.equal(
      (JSON.parse(readFileSync(`${out}.lock`, 'utf8')) as { started: string }).started === '2026-11-27T00:00:00.000Z',
      false,
      'taken over',
    );
    release();
  }
  assert.deepEqual(existsSync(`${out}.lock.stale-${process.pid}`), false, 'nothing left aside');
});

test('an empty lock file (a build between creating and writing it) is held while fresh', () => {
  const out = join(work, 'fresh');
  writeFileSync(`${out}.lock`, '');
  assert.throws(
    () => lockSite(out),
    (err: Error) => err instanceof BuildLocked && /a build that is starting/.test(err.message),
  );
  rmSync(`${out}.lock`);
});

test('out-dir refusals: a file, a device, a link to a file, a path under a file, the root; a missing path, an empty directory and a dangling link are fine', () => {
  const file = join(work, 'file');
  writeFileSync(file, 'x');
  symlinkSync(file, join(work, 'link-to-file'));
  symlinkSync(join(work, 'nowhere'), join(work, 'dangling'));
  mkdirSync(join(work, 'empty'));
  assert.match(outDirRefusal(file) ?? '', /is a file/);
  assert.match(outDirRefusal('/dev/null') ?? '', /is a device/);
  assert.match(outDirRefusal(join(work, 'link-to-file')) ?? '', /link to a file/);
  assert.match(outDirRefusal(join(file, 'site')) ?? '', /is a file/);
  assert.match(outDirRefusal('/') ?? '', /root of the file system/);
  for (const fine of [join(work, 'missing'), join(work, 'empty'), join(work, 'dangling')])
    assert.equal(outDirRefusal(fine), undefined, fine);
});

test('a directory holds only its site when its files are exactly those its marker lists', () => {
  const dir = join(work, 'site');
  mkdirSync(join(dir, 'api'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), 'a');
  writeFileSync(join(dir, 'api', 'x.json'), '{}');
  assert.equal(holdsOnlyItsSite(dir), undefined, 'no marker: unknown');
  writeFileSync(join(dir, SITE_MARKER), JSON.stringify(markerOf('hoba build', '0'.repeat(64), ['index.html', 'api/x.json'])));
  assert.equal(holdsOnlyItsSite(dir), true);
  writeFileSync(join(dir, 'notes.txt'), 'mine');
  assert.equal(holdsOnlyItsSite(dir), false, 'a file added');
  rmSync(join(dir, 'notes.txt'));
  symlinkSync('/etc', join(dir, 'etc'));
  assert.equal(holdsOnlyItsSite(dir), false, 'a link added');
  rmSync(join(dir, 'etc'));
  rmSync(join(dir, 'index.html'));
  assert.equal(holdsOnlyItsSite(dir), false, 'a file removed');
  assert.match(outDirRefusal(dir) ?? '', /holds files the build did not write/);
});
