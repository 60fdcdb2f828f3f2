/**
 * Starts the whole stack for an integration suite: local processes by default, or the
 * docker-compose.yml services through Testcontainers with `mode: 'containers'`.
 */
import { startContainerStack } from './container-stack.js';
import { startLocalStack } from '../../scripts/local-stack.js';
import type { Stack, StackOptions } from '../../scripts/stack-types.js';

export { containerRuntimeReason } from './container-stack.js';
export type { ServiceName, Stack, StackOptions } from '../../scripts/stack-types.js';

export function startStack(options: StackOptions & { mode?: 'local' | 'containers' } = {}): Promise<Stack> {
  return options.mode === 'containers' ? startContainerStack(options) : startLocalStack(options);
}
