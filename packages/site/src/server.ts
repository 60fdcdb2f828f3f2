/**
 * What a site's server part may use of the renderer: its definition, and the request as the
 * visitor made it (behind the gateway). Node only.
 */
export { defineSiteServer, type SiteServer, type SiteServerContext, type SiteServerInstance } from './define-site-server.js';
export { requestOrigin, trustTheGateway } from './request-origin.js';
