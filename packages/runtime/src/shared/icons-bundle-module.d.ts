/** The virtual module of build/icon-bundle-plugin.ts. */
declare module 'virtual:icon-bundle' {
  const bundle: import('./icons.js').IconBundle;
  export default bundle;
}

/** The UI icons drawn only after hydration (icons-registry.ts LATE_UI_ICON_NAMES). */
declare module 'virtual:icon-bundle/late' {
  const bundle: import('./icons.js').IconBundle;
  export default bundle;
}
