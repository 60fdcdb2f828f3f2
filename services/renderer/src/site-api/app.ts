/**
 * What a site's pages, layouts and components may use of the platform (Nuxt's `#app` and its UI
 * components), in one place: the page contract, navigation, the HTTP client, the route middleware
 * types and the UI kit. Browser-safe. ESLint keeps a site to this module, define-site.ts and
 * server.ts: the rest of the renderer may change without touching a site.
 */
export { defineSiteApp, type LayoutComponent, type SiteApp } from './define-site-app.js';
export { siteServicesOf } from './services.js';
export type { HeadContext, PageHead } from '../runtime/shared/head.js';
export { isPageHandle, type PageHandle, type PageModule, type PageValidate } from '../runtime/shared/page-module.js';
export type { MiddlewareContext, MiddlewareRegistry, MiddlewareResult, RouteMiddleware } from '../runtime/shared/middleware.js';
export { navigate } from '../runtime/shared/navigate.js';
export { http } from '../runtime/shared/http-client.js';
export { CodeBlockCopyButtons } from '../app/components/ui/copy-button.js';
export { ColorModeSwitch } from '../app/components/ui/color-mode-switch.js';
export { Icon } from '../app/components/ui/icon.js';
export { Img } from '../app/components/ui/img.js';
export { toast } from '../app/components/ui/toast.js';
export { Tooltip } from '../app/components/ui/tooltip.js';
