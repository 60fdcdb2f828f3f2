/**
 * The container files: docker-compose.yml must pass `docker-compose config`, and the Dockerfile
 * must offer one non-root target per service. Building and running them is the Testcontainers
 * run of stack.test.ts, on machines with a container runtime.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '@tern/shared/config/paths';
import { SERVICE_NAMES } from '@tern/cli/services';

// `docker` counts only with its compose plugin: the bare client answers --version but not `compose`.
const composeCommand = [
  ['docker-compose', ['--version']],
  ['docker', ['compose', 'version']],
].find(([command, args]) => spawnSync(command as string, args as string[]).status === 0)?.[0] as string | undefined;
if (!composeCommand) console.warn('skipping `docker-compose config`: neither docker-compose nor the docker compose plugin is installed');

describe('docker-compose.yml', () => {
  it.runIf(composeCommand)('passes `docker-compose config -q`', () => {
    const args = composeCommand === 'docker' ? ['compose', 'config', '-q'] : ['config', '-q'];
    const result = spawnSync(composeCommand!, args, { cwd: projectRoot, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('publishes only the gateway, and every service waits for what it needs to be healthy', () => {
    const result = spawnSync(composeCommand ?? 'true', composeCommand === 'docker' ? ['compose', 'config'] : ['config'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    const text = composeCommand ? result.stdout : readFileSync(join(projectRoot, 'docker-compose.yml'), 'utf8');
    const published = text.match(/ports:/g) ?? [];
    expect(published).toHaveLength(1);
    expect(text).toMatch(/service_healthy/);
    for (const name of [...SERVICE_NAMES, 'redis']) expect(text).toContain(`${name}:`);
  });
});

describe('docker-compose.yml keeps durable data', () => {
  const text = readFileSync(join(projectRoot, 'docker-compose.yml'), 'utf8');
  it('runs Redis with an append-only file fsynced every second on a named volume', () => {
    const redis = text.slice(text.indexOf('\n  redis:'), text.indexOf('\n  renderer:'));
    expect(redis).toMatch(/'--appendonly', 'yes'/);
    expect(redis).toMatch(/'--appendfsync', 'everysec'/);
    expect(redis).toMatch(/- redis-data:\/data/);
    expect(text).toMatch(/^volumes:[\s\S]*^ {2}redis-data:/m);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(projectRoot, 'Dockerfile'), 'utf8');
  it.each(SERVICE_NAMES)('has a %s target that runs its compiled entry', (name) => {
    expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${name}$`, 'm'));
    expect(dockerfile).toContain(`services/${name}/dist/main.js`);
  });
  it.each(SERVICE_NAMES)('copies only what the %s service runs: its traced folder, no shared node_modules', (name) => {
    const target = dockerfile.slice(dockerfile.indexOf(`FROM runtime AS ${name}`)).split(/\nFROM /)[0]!;
    expect(target).toContain(`COPY --from=build /app/dist/standalone/${name} ./`);
    expect(target).not.toMatch(new RegExp(`standalone/(?!${name}\\b)`));
    expect(dockerfile).not.toMatch(/^COPY .*node_modules/m);
  });
  it('runs as a non-root user on Node 24 slim with a HEALTHCHECK', () => {
    expect(dockerfile).toMatch(/node:24-slim/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });
});
