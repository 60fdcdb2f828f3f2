/**
 * Work nobody waits for any more: every asker of a transform left (the client closed its
 * connection, or the gateway's timeout closed its request). sharp cannot be stopped inside a
 * pipeline, so the work checks its signal between stages (waiting for a slot, probing, transforming).
 */
import { createError, type HttpError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';

export const abandoned = (): HttpError => createError(IMAGE_ERRORS.IMAGE_ABANDONED());

export const isAbandoned = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === IMAGE_ERRORS.IMAGE_ABANDONED.code;

/** Between two stages: stop here when nobody waits. */
export function stillWanted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abandoned();
}
