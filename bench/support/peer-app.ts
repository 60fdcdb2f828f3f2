/** A peer framework's server (Nuxt, Next.js) started for a bench, in a process of its own. */
import type { ChildProcess } from 'node:child_process';
import { waitForOk } from '@tern/cli/services';

export interface PeerApp {
  url: string;
  version: string;
  /** How the bench names it. */
  label: string;
  pid: number;
  stop(): void;
}

/** The peer once it answers the bench's page; a peer that never does is stopped, not left running. */
export async function peerReady(child: ChildProcess, port: number, version: string, label: string): Promise<PeerApp> {
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForOk(`${url}/category/git`, 60_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return { url, version, label, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
