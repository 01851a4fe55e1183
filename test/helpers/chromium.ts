/**
 * Headless Chromium for the tests that read pages as a browser does: Debian's chromium, which
 * `.ci/run` installs, driven by playwright-core (no browser of its own is downloaded).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

/** A headless browser with nothing of its own going to the network (updates, first-run pages). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
