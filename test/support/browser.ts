// Launching Debian's Chromium for the page tests. Outside CI a missing browser skips the tests
// (visibly, with the reason in the test name); in CI (CI=true) a missing browser is a failure.
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = fs.existsSync(CHROMIUM);
export const inCi = process.env.CI === "true";
export const SCREENSHOTS = path.join(__dirname, "..", "..", "test-output", "screenshots");

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, `${name}.png`);
}
