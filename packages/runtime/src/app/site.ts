/**
 * The site this bundle was built for: its app half (`virtual:site-app`, the module its `defineSite`
 * names, resolved by build/site-plugin.ts) as a route tree. With site-head.ts, the only modules of
 * the platform's app that reach the site; everything else is handed what it needs.
 */
import siteApp from 'virtual:site-app';
import 'virtual:site-styles';
import site from 'virtual:site';
import { createAppRoutes } from './routes.js';

export { siteHead } from './site-head.js';

export const appRoutes = createAppRoutes(siteApp, site.appDir);
/** The site's own start-up in the browser (`defineSiteApp({ onClientStart })`). */
export const onClientStart = siteApp.onClientStart;
/**
 * The site's personal parts (`defineSiteApp({ personal })`), drawn alone by the server for the
 * gateway. A function, so that the browser bundle, which never asks, keeps nothing of it.
 */
export const sitePersonal = () => siteApp.personal;
