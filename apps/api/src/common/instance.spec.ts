import { spawn } from 'node:child_process';
import { INSTANCE, INSTANCE_TAG, ownerIsGone } from './instance';

describe('ownerIsGone (is the process that owns a generation known to be dead?)', () => {
  it('is false for this process and for processes that still run', () => {
    expect(ownerIsGone(INSTANCE_TAG)).toBe(false);
    expect(ownerIsGone(`${INSTANCE.host}|${process.ppid}|some-boot`)).toBe(false);
  });

  it('is true for an earlier start that had this pid, and for a pid no process has any more', async () => {
    expect(ownerIsGone(`${INSTANCE.host}|${process.pid}|an-earlier-boot`)).toBe(true);
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((r) => child.once('exit', r));
    expect(ownerIsGone(`${INSTANCE.host}|${pid}|its-boot`)).toBe(true);
  });

  it('never judges another host, or a tag it cannot read (it waits for the heartbeat instead)', () => {
    expect(ownerIsGone(`another-host|${process.pid}|x`)).toBe(false);
    expect(ownerIsGone(null)).toBe(false);
    expect(ownerIsGone('garbage')).toBe(false);
    expect(ownerIsGone(`${INSTANCE.host}|0|x`)).toBe(false);
  });
});
