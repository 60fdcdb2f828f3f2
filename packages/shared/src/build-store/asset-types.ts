/**
 * The client assets of recent builds, shared by every gateway, so a tab still running an old build
 * finds its chunks and stylesheets after the renderers of that build are gone.
 * Design: docs/decisions/skew-protection.md.
 */

/** The encodings a file is kept in: its precompressed twins (packages/cli/src/compress-assets.ts) and itself. */
export type AssetEncoding = 'br' | 'gzip' | 'identity';

/** One hashed client file (`entry-client-Doq3rTzh.js`) with the twins the build wrote. */
export interface AssetFile {
  name: string;
  identity: Buffer;
  br?: Buffer | undefined;
  gzip?: Buffer | undefined;
}

export interface StoredAsset {
  encoding: AssetEncoding;
  body: Buffer;
}

/**
 * Files are stored by name: Vite puts a content hash in every name, so one name is one content and
 * builds that share a chunk share its copy. Two implementations share one contract suite
 * (`asset-store.contract.ts`): Redis and files.
 */
export interface AssetStore {
  readonly kind: 'redis' | 'file';
  /**
   * Stores a build's files and makes it the newest build. Builds past the last `keep` lose the
   * files no kept build shares; every file expires `ttlMs` after it was last published or touched.
   */
  publish(buildId: string, files: AssetFile[]): Promise<void>;
  /** True when the build's files are all stored: a restart of the same build sends nothing. */
  has(buildId: string): Promise<boolean>;
  /** The first of `encodings` the store holds for `name`; null for an unknown or malformed name. */
  get(name: string, encodings: readonly AssetEncoding[]): Promise<StoredAsset | null>;
  /** Restarts the expiry of a build's files (a build that runs longer than the TTL keeps them). */
  touch(buildId: string): Promise<void>;
  /** The builds whose files are kept, newest first. */
  builds(): Promise<string[]>;
  close(): Promise<void>;
}

export interface AssetStoreLimits {
  /** How many builds' files are kept (ASSET_BUILDS_KEPT). */
  keep: number;
  /** How long a file lives after its last publish or touch (ASSET_TTL_MS). */
  ttlMs: number;
}

export const ASSET_BUILDS_KEPT = 5;
export const ASSET_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Asset names become file names and Redis keys: only flat names, never a path or `..`. */
export function isAssetName(value: unknown): value is string {
  return typeof value === 'string' && ASSET_NAME.test(value) && !value.includes('..');
}
