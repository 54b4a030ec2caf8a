/**
 * Which process a leftover belongs to. An upload streamed through this process marks what it leaves
 * while in progress (its temp file's name, its ledger row) with this process's tag, so that after a
 * crash (`kill -9`, power loss) a sweep knows at once whether the writer is gone:
 * `<machine>.<pid>.<start>`.
 *
 * - machine: a hash of the machine id, host name and pid namespace: a pid is only judged where it
 *   means the same process (never across containers, even ones with the same host name);
 * - pid: a process that no longer exists (signal 0 → ESRCH) is dead;
 * - start: random per process start, so a successor with the same pid (pid 1 in a container) never
 *   takes its predecessor's leftovers for its own.
 *
 * A live pid is not proof of a live writer (pids are reused, other instances share the machine), so
 * such leftovers, and those of other machines, are judged by age instead.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

export interface ProcessTag {
  machine: string;
  pid: number;
  start: string;
}

function machineId(): string {
  const read = (get: () => string): string => {
    try {
      return get().trim();
    } catch {
      return ''; // not on Linux, or hidden in this container
    }
  };
  const id = read(() => readFileSync('/etc/machine-id', 'utf8'));
  const pidNamespace = read(() => readlinkSync('/proc/self/ns/pid'));
  return createHash('sha256').update(`${id}\n${os.hostname()}\n${pidNamespace}`).digest('hex').slice(0, 10);
}

export const THIS_PROCESS: ProcessTag = {
  machine: machineId(),
  pid: process.pid,
  start: randomBytes(4).toString('hex'),
};

export const formatTag = (tag: ProcessTag): string => `${tag.machine}.${tag.pid}.${tag.start}`;

export function parseTag(text: string): ProcessTag | null {
  const match = /^([0-9a-f]{10})\.(\d{1,10})\.([0-9a-f]{8})$/.exec(text);
  return match ? { machine: match[1]!, pid: Number(match[2]), start: match[3]! } : null;
}

/**
 * `self`: this process; `dead`: a process of this machine that is gone; `unknown`: anything else
 * (another machine's, a live pid's, an unreadable tag).
 */
export function processState(tag: ProcessTag | null): 'self' | 'dead' | 'unknown' {
  if (!tag || tag.machine !== THIS_PROCESS.machine) return 'unknown';
  if (tag.pid === THIS_PROCESS.pid) return tag.start === THIS_PROCESS.start ? 'self' : 'dead';
  try {
    process.kill(tag.pid, 0);
    return 'unknown';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'unknown';
  }
}
