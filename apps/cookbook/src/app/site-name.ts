/** The cookbook's name, shown by its header and its login page, and the suffix of every title (site.ts). */
export const SITE_NAME = 'Cookbook';
