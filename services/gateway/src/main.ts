/** Starts the gateway: reads its config, builds the app, listens, drains on SIGTERM. */
import { createLogger } from '@tern/shared/logging/logger';
import { listen, listenOptionsOf } from '@tern/shared/http/service';
import { buildGatewayApp } from './app.js';
import { readGatewayConfig } from './config.js';

const config = readGatewayConfig();
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });
const { app } = await buildGatewayApp(config, { logger });
await listen(app, listenOptionsOf(config));
