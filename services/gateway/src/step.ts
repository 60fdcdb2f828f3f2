/** The shape of one decision on the gateway's request path (pipeline.ts). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayRequestState } from './request-state.js';

/**
 * Answers the request and returns true, or leaves it to the next step and returns false. A step
 * that needs no I/O for its decision returns at once: only a step that waits makes a promise.
 */
export type Step = (request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState) => boolean | Promise<boolean>;

/** Adds to an answer on its way out (any answer Fastify sends, whoever made it). */
export type AnswerHeaders = (request: FastifyRequest, reply: FastifyReply, state: GatewayRequestState) => void;
