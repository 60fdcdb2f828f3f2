/**
 * The flags Debian's Chromium is launched with here, by the browser tests and by bench:lighthouse
 * (it lives under bench/ because the server build compiles bench/ but not tests/).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
