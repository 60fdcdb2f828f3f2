/**
 * The build files under the assets prefix, Nuxt's `{prefix}builds/latest.json` (the current build)
 * and `{prefix}builds/meta/{id}.json` (a build's meta), which the gateway serves from the build
 * store and the client reads. Browser-safe: no imports.
 */

/** The folder of the build files under the assets prefix. */
export const BUILDS_DIR = 'builds/';

/** `{prefix}builds/latest.json`. */
export function latestBuildPath(assetsPrefix: string): string {
  return `${assetsPrefix}${BUILDS_DIR}latest.json`;
}

/** `{prefix}builds/meta/`: a build's meta is the one segment after it. */
export function buildMetaDir(assetsPrefix: string): string {
  return `${assetsPrefix}${BUILDS_DIR}meta/`;
}

/** `{prefix}builds/meta/{id}.json`, the id percent-encoded. */
export function buildMetaPath(assetsPrefix: string, buildId: string): string {
  return `${buildMetaDir(assetsPrefix)}${encodeURIComponent(buildId)}.json`;
}

/** True for a URL under `{prefix}builds/`. */
export function isBuildFilePath(url: string, assetsPrefix: string): boolean {
  return url.startsWith(assetsPrefix) && url.startsWith(BUILDS_DIR, assetsPrefix.length);
}
