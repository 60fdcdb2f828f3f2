/**
 * Writes one trimmed folder per service, dist/standalone/<service>/, holding only the files its
 * entries reach: traced with @vercel/nft (as Next.js's `standalone` output and Nitro's `.output`
 * are), plus the build output and the files each service reads by a path nft cannot follow. Each
 * Dockerfile target copies its own folder, so no image carries another service's dependencies.
 *
 *   npm run build:standalone                     every service, every icon set
 *   ICONS_SETS=lucide,logos npm run build:standalone   the icons image with those sets only
 */
import { cp, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nodeFileTrace } from '@vercel/nft';
import { projectRoot, projectSettings } from '@tern/shared/config/paths';
import { SERVICE_NAMES, type ServiceName } from '../services.js';

const OUT = join(projectRoot, 'dist', 'standalone');
const ICONIFY = 'node_modules/@iconify/json';

interface ServicePlan {
  /** Compiled entries, relative to the project root. */
  entries: string[];
  /** Build output and data read at runtime by computed paths: copied whole. */
  copy: string[];
}

const main = (name: ServiceName) => `services/${name}/dist/main.js`;
// Every image's HEALTHCHECK runs it.
const healthcheck = 'packages/shared/dist/http/healthcheck.js';

/** sharp loads its platform package by a computed name: whichever ones npm installed here. */
function sharpPlatformPackages(): string[] {
  const dir = join(projectRoot, 'node_modules/@img');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^sharp-(libvips-)?linux/.test(name))
    .map((name) => `node_modules/@img/${name}`);
}

// Every image carries the built site's defaults (its Redis prefix…), which each service's config reads.
const siteJson = 'dist/ssr/site.json';

const plans: Record<ServiceName, ServicePlan> = {
  gateway: { entries: [main('gateway'), healthcheck], copy: ['dist/prerender', siteJson] },
  renderer: {
    // The SSR bundle is imported by a path from config; the users CLI runs inside the container.
    entries: [main('renderer'), healthcheck, 'dist/ssr/entry-server.js', 'apps/cookbook/dist/server/users-cli.js'],
    copy: ['dist/client', 'dist/ssr', 'dist/content', 'dist/build'],
  },
  image: { entries: [main('image'), healthcheck], copy: [projectSettings.public ?? 'public', siteJson, ...sharpPlatformPackages()] },
  icons: { entries: [main('icons'), healthcheck], copy: [siteJson] },
};

/** ICONS_SETS: `all` (default) or a comma list; the icons image then holds those sets only. */
async function iconSets(): Promise<string[]> {
  const collections = JSON.parse(await readFile(join(projectRoot, ICONIFY, 'collections.json'), 'utf8')) as Record<string, unknown>;
  const wanted = (process.env.ICONS_SETS ?? 'all').trim();
  if (wanted === '' || wanted === 'all') return Object.keys(collections);
  const names = wanted
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(name in collections));
  if (unknown.length > 0) throw new Error(`ICONS_SETS: not in @iconify/json: ${unknown.join(', ')}`);
  return names;
}

/** The icon data: the chosen sets' files and build-time indexes, and a collection list of just them. */
async function writeIconSets(target: string): Promise<number> {
  const sets = await iconSets();
  const collections = JSON.parse(await readFile(join(projectRoot, ICONIFY, 'collections.json'), 'utf8')) as Record<string, unknown>;
  const kept = Object.fromEntries(sets.map((name) => [name, collections[name]]));
  await mkdir(join(target, ICONIFY, 'json'), { recursive: true });
  await writeFile(join(target, ICONIFY, 'collections.json'), JSON.stringify(kept));
  await cp(join(projectRoot, ICONIFY, 'package.json'), join(target, ICONIFY, 'package.json'));
  for (const name of sets) {
    await cp(join(projectRoot, ICONIFY, 'json', `${name}.json`), join(target, ICONIFY, 'json', `${name}.json`));
    const index = join(projectRoot, 'dist/icons', `${name}.json`);
    if (existsSync(index)) await cp(index, join(target, 'dist/icons', `${name}.json`));
  }
  return sets.length;
}

/**
 * A traced file, dereferenced; a link to a folder (a workspace package's node_modules/@tern/* link)
 * stays a link with the same relative target, whose traced files are copied on their own.
 */
async function copyTraced(from: string, to: string): Promise<void> {
  if ((await lstat(from)).isSymbolicLink() && (await stat(from)).isDirectory()) await symlink(await readlink(from), to);
  else await cp(from, to, { dereference: true });
}

async function writeService(name: ServiceName): Promise<void> {
  const plan = plans[name];
  const target = join(OUT, name);
  await rm(target, { recursive: true, force: true });
  const { fileList, warnings } = await nodeFileTrace(
    plan.entries.map((entry) => join(projectRoot, entry)),
    { base: projectRoot, processCwd: projectRoot },
  );
  for (const warning of warnings) {
    // Optional requires nft cannot resolve (for example a peer that is not installed) are expected.
    if (!/Cannot find module|Failed to resolve dependency|Failed to parse .*\/(LICENSE|README)/.test(warning.message))
      console.warn(`trace ${name}: ${warning.message}`);
  }
  // @iconify/json's set files are chosen by ICONS_SETS, never by what nft happened to see.
  const files = [...fileList].filter((file) => !file.startsWith(`${ICONIFY}/json/`) && file !== `${ICONIFY}/collections.json`);
  for (const file of files) {
    await mkdir(dirname(join(target, file)), { recursive: true });
    await copyTraced(join(projectRoot, file), join(target, file));
  }
  for (const path of ['package.json', ...plan.copy]) await cp(join(projectRoot, path), join(target, path), { recursive: true });
  const extra = name === 'icons' ? `, ${await writeIconSets(target)} icon sets` : '';
  console.log(`standalone: ${name} ${files.length} traced files${extra}`);
}

for (const name of SERVICE_NAMES) await writeService(name);
