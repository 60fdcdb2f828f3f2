/** The site's name and description (its `defineSite`), which every head falls back on. */
import site from 'virtual:site';
import type { SiteHead } from '../shared/head.js';

export const siteHead: SiteHead = { name: site.name, description: site.description };
