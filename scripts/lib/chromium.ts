// Debian's Chromium, the one browser the tests drive (through playwright-core): scripts/ensure-chromium.ts
// installs it with apt-get; no test downloads a browser. The flags keep it headless and off the network.
export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
