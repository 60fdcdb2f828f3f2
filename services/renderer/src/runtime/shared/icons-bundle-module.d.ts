/** The virtual module of build/icon-bundle-plugin.ts. */
declare module 'virtual:icon-bundle' {
  const bundle: import('./icons.js').IconBundle;
  export default bundle;
}
