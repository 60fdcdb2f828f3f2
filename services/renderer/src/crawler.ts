/**
 * docs/spec.md §2: errors met by known crawlers are logged and not rendered. A crawler gets the status
 * and a one-line body, so no error page is ever indexed; people get the page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isCrawlerAgent } from '@tern/shared/http/crawler';
import { errorPageTitle, type ErrorBody } from '@tern/shared/errors/errors';

export function isCrawler(request: FastifyRequest): boolean {
  return isCrawlerAgent(request.headers['user-agent']);
}

export function answerCrawlerError(request: FastifyRequest, reply: FastifyReply, error: ErrorBody): FastifyReply {
  request.log.warn(
    { userAgent: request.headers['user-agent'], statusCode: error.statusCode, statusMessage: error.statusMessage, path: error.url },
    'not rendering error page for crawler',
  );
  return (
    reply
      .code(error.statusCode)
      .header('cache-control', 'no-store')
      // JSON for a JSON client, this line for a crawler, the page for a person.
      .header('vary', 'accept, user-agent')
      .header('x-robots-tag', 'noindex')
      .type('text/plain; charset=utf-8')
      .send(`${error.statusCode} ${errorPageTitle(error.statusCode)}\n`)
  );
}
