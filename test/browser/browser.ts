/**
 * Shared set-up for the browser tests: Debian's chromium driven by playwright-core (which never downloads a
 * browser), with every console message, page error, dialog and request recorded so a test can assert that
 * a report ran cleanly and offline.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches chromium, or fails with what to do: CI installs it, so a missing browser is an error, not a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} not found: the browser tests need Debian's chromium. Install it with: apt-get update && apt-get install -y chromium (.ci/run does this)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface PageLog {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  requests: string[];
}

/** A new page whose console errors, page errors, dialogs (dismissed) and requests are recorded. */
export async function openLoggedPage(browser: Browser): Promise<{ page: Page; log: PageLog }> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const log: PageLog = { consoleErrors: [], pageErrors: [], dialogs: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') log.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => log.pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    log.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => log.requests.push(request.url()));
  return { page, log };
}

/** Requests that left the file system (anything but file:). */
export function networkRequests(log: PageLog): string[] {
  return log.requests.filter((url) => !url.startsWith('file:'));
}
