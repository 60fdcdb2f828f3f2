/**
 * The size of each service image, its base image's, and the difference (what the target adds):
 * issue 23's goal is gateway ≤ 40 MB, renderer ≤ 100 MB, image ≤ 80 MB over the base.
 *
 *   docker-compose build && npm run bench:image-sizes
 *   npm run bench:image-sizes -- 'cookbook-before/{target}:latest'   (another set of tags)
 *
 * Sizes are Docker's own (`docker image inspect`, uncompressed, base layers included), in MB of
 * 10^6 bytes as `docker images` shows them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '@tern/shared/config/paths';
import { SERVICE_NAMES } from '@tern/cli/services';

const GOALS_MB: Record<string, number | undefined> = { gateway: 40, renderer: 100, image: 80 };

const template = process.argv[2] ?? 'cookbook-{target}:latest';
// The base every target starts from: the Dockerfile's NODE_IMAGE default.
const base = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(projectRoot, 'Dockerfile'), 'utf8'))?.[1] ?? 'node:24-slim';

function sizeOf(image: string): number | null {
  try {
    return Number(
      execFileSync('docker', ['image', 'inspect', '-f', '{{.Size}}', image], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
    );
  } catch {
    return null;
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const baseSize = sizeOf(base);
if (baseSize === null) {
  console.error(`image-sizes: the base image ${base} is not here (scripts/containers/stand-in-images.sh makes it)`);
  process.exit(1);
}
const rows = SERVICE_NAMES.map((target) => {
  const image = template.replace('{target}', target);
  const size = sizeOf(image);
  const goal = GOALS_MB[target];
  if (size === null) return { target, image, size: 'absent', base: mb(baseSize), added: '', goal: goal ? `≤ ${goal}` : '' };
  const added = (size - baseSize) / 1e6;
  const verdict = goal === undefined ? '' : `${added <= goal ? 'within' : 'OVER'} ≤ ${goal}`;
  return { target, image, size: mb(size), base: mb(baseSize), added: added.toFixed(1), goal: verdict };
});
console.log(`base ${base}: ${mb(baseSize)} MB`);
console.table(rows);
if (rows.some((row) => row.size === 'absent')) process.exitCode = 1;
