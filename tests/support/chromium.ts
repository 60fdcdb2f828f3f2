/** Debian's Chromium through playwright-core, launched the one way this machine allows. */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../bench/support/chromium-args.js';

/** Headless Chromium says "HeadlessChrome", which isbot counts as a crawler: look like a person. */
export const PERSON_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
