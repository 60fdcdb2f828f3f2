/** Helpers for the site's integration tests: a visitor with a cookie jar, and the users CLI. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '@tern/shared/config/paths';
import { DEMO_EMAIL, DEMO_PASSWORD } from 'cookbook/server/auth/demo-account';

/** The account embedded mode creates at start. */
export const DEMO = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

/** A browser-like client of the gateway: keeps the session cookie, sends its own Origin. */
export class Visitor {
  cookie = '';
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.headers)) if (!headers.has(name)) headers.set(name, value);
    if (this.cookie) headers.set('cookie', this.cookie);
    if (init.method && init.method !== 'GET' && !headers.has('origin')) headers.set('origin', this.base);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    const response = await fetch(`${this.base}${path}`, {
      ...init,
      headers,
      redirect: 'manual',
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    const set = response.headers.getSetCookie().find((c) => c.startsWith('cookbook_session='));
    if (set) this.cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
    return response;
  }

  login(email: string, password: string): Promise<Response> {
    return this.fetch('/api/auth/login', { method: 'POST', json: { email, password } });
  }

  async html(path: string): Promise<string> {
    return (await this.fetch(path, { headers: { accept: 'text/html' } })).text();
  }
}

/** `npm run users -- add <email> <name>` with the password piped on stdin. */
export function addUser(
  env: Record<string, string>,
  email: string,
  name: string,
  password: string,
): Promise<{ code: number | null; out: string }> {
  const cli = join(projectRoot, 'apps', 'cookbook', 'dist', 'server', 'users-cli.js');
  const child = spawn(process.execPath, [cli, 'add', email, name], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  child.stdin.end(`${password}\n`);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

/** `npm run users -- <args>` with `input` on stdin: its exit code, stdout and stderr apart. */
export function usersCli(
  env: Record<string, string>,
  args: string[],
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = join(projectRoot, 'apps', 'cookbook', 'dist', 'server', 'users-cli.js');
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
