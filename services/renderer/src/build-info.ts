/**
 * The renderer owns the build: at start it reads the meta `npm run build:meta` wrote and
 * publishes it to the build store (packages/shared/src/build-store/keep-published.ts), where the gateway reads it.
 */
import { readFile } from 'node:fs/promises';
import { isBuildId, validSessionCookie, type BuildMeta } from '@tern/shared/build-store';

export async function readBuildMeta(file: string): Promise<BuildMeta> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the build meta ${file} (run \`npm run build\`)`, { cause: error });
  }
  const meta = parsed as Partial<BuildMeta> | null;
  if (
    !meta ||
    !isBuildId(meta.id) ||
    typeof meta.timestamp !== 'number' ||
    typeof meta.matcher !== 'object' ||
    !Array.isArray(meta.prerendered) ||
    !validSessionCookie(meta.sessionCookie)
  ) {
    throw new Error(`the build meta ${file} is malformed (rebuild with \`npm run build\`)`);
  }
  return meta as BuildMeta;
}
