import type { ServiceName } from './services.js';

export type { ServiceName };

export interface StackOptions {
  /** Use Redis (with a key prefix of this stack's own) for the build store and sessions. */
  redis?: boolean;
  redisUrl?: string;
  /** Extra environment for every service. */
  env?: Record<string, string>;
}

export interface Stack {
  mode: 'local' | 'containers';
  /** The gateway's base URL. */
  url: string;
  serviceUrl(name: ServiceName): string;
  startService(name: ServiceName): Promise<void>;
  /** Stops one service; resolves with its exit code. */
  stopService(name: ServiceName, signal?: NodeJS.Signals): Promise<number | null>;
  redisUrl: string | undefined;
  redisPrefix: string | undefined;
  /** The embedded build store's folder (local mode without Redis). */
  buildStoreDir: string | undefined;
  /** The log lines a service printed so far. */
  logs(name: ServiceName): string[];
  stop(): Promise<void>;
}
