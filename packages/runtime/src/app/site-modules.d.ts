/** The modules build/site-plugin.ts provides for the site being built. */
declare module 'virtual:site-app' {
  const app: import('@tern/site/define-site-app').SiteApp;
  export default app;
}

declare module 'virtual:site-server' {
  const server: import('@tern/site/define-site-server').SiteServer | null;
  export default server;
}

declare module 'virtual:site-styles';

declare module 'virtual:site' {
  const site: {
    name: string;
    description: string;
    /**
     * The folder of the site's app module, relative to the renderer's root: the manifest's page keys
     * start with it. `.` in the browser's bundle, which reads no manifest (build/site-plugin.ts).
     */
    appDir: string;
  };
  export default site;
}
