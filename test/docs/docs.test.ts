// The docs page (generated/docs/index.html) as a person sees it: Debian's Chromium, driven by
// playwright-core, with every request that leaves 127.0.0.1 or file:// aborted (the page must work
// offline). Operations, examples and the provenance register are read from generated/, never listed here.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
import { startDocsServer, type DocsServer } from "../../scripts/serve-docs.js";
import { PROVENANCE_KINDS, type ProvenanceEntry } from "../../scripts/build/provenance.js";
import {
  deref,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  successKey,
  type SpecOperation,
} from "../support/spec.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PAGE_FILE = path.join(root, "generated", "docs", "index.html");
const SCREENSHOTS = path.join(root, "test-output", "docs");
// Redoc's route (and heading id) for an introduction section.
const sectionRoute = (heading: string) => `section/${heading.toLowerCase().replace(/\s+/g, "-")}`;

interface Operation {
  method: string;
  path: string;
  summary: string;
  operationId: string;
  tag: string;
  spec: SpecOperation;
}

const spec = loadSpec();
const info = spec.info as { title: string; description: string };
const register: { kinds: { key: string; heading: string; entries: ProvenanceEntry[] }[] } = JSON.parse(
  await readFile(path.join(root, "generated", "provenance.json"), "utf8"),
);

// The TypeScript samples import the client from this package (their first line).
const packageName = String(JSON.parse(await readFile(path.join(root, "package.json"), "utf8")).name);

const tagLabels = new Map<string, string>(
  ((spec.tags ?? []) as any[]).map((t: any) => [t.name, t["x-displayName"] ?? t.name]),
);
const operations: Operation[] = listSpecOperations().map((op) => ({
  method: op.method,
  path: op.path,
  summary: String(op.operation.summary),
  operationId: op.operationId,
  tag: String((op.operation.tags as string[])[0]),
  spec: op,
}));

/** Whether the path template (with `{…}` segments) matches the concrete path. */
const templateMatches = (template: string, concrete: string) =>
  template.includes("{") &&
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`,
  ).test(concrete);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const plain = (markdown: string) => markdown.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();

/** Top-level property names of a schema, through $ref and allOf. */
function propertyNames(schema: unknown): string[] {
  const resolved = deref(spec, schema) as Record<string, any> | undefined;
  if (!resolved) return [];
  return [...Object.keys(resolved.properties ?? {}), ...(resolved.allOf ?? []).flatMap(propertyNames)];
}

let docs: DocsServer;
let context: BrowserContext;
let page: Page;
let userDataDir: string;
const consoleErrors: string[] = [];
const failedRequests: string[] = [];
const externalRequests: string[] = [];

function watch(target: Page, origin: string) {
  target.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${target.url()}: ${message.text()}`);
  });
  target.on("pageerror", (error) => consoleErrors.push(`${target.url()}: uncaught ${error.message}`));
  const sameOrigin = (url: string) => url.startsWith(origin) || url.startsWith("file://");
  target.on("requestfailed", (request) => {
    if (sameOrigin(request.url())) failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  target.on("response", (response) => {
    if (sameOrigin(response.url()) && response.status() >= 400)
      failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
}

const menuItems = () => page.locator('[data-component-name="Menu/MenuItem"]');

function operationMenuItem(target: Page, op: Operation) {
  const label = new RegExp(`^\\s*${escapeRegExp(op.summary)}\\s*${op.method}\\s*$`, "i");
  return target
    .locator('[data-component-name="Menu/MenuItem"].menu-item-type-operation')
    .filter({ has: target.locator(":scope > a", { hasText: label }) });
}

function groupMenuItem(target: Page, tag: string) {
  const label = new RegExp(`^\\s*${escapeRegExp(tagLabels.get(tag) ?? tag)}\\s*$`);
  return target
    .locator('[data-component-name="Menu/MenuItem"].menu-item-type-group')
    .filter({ has: target.locator(":scope > a", { hasText: label }) });
}

/**
 * Waits until Redoc's menu has caught up with the route (`route`, when given: the link of the item that
 * was clicked): the route's item is marked active, the tag groups holding it are expanded, every
 * other group is collapsed, and no group is in the middle of its expand/collapse animation. Redoc
 * expands and collapses the groups itself after each navigation (an animated accordion, a few hundred
 * milliseconds after the route changed): until then an item of a group that is about to collapse still
 * looks visible, and clicking a group's label toggles it. The menu is read and clicked only once settled.
 */
async function menuSettled(target: Page, route?: string) {
  await target.waitForFunction((expected) => {
    // "#/trades/createquote", "/trades" and "" (the introduction, "/") name routes; a second "#" is a place in the page.
    const routeOf = (link: string | null | undefined) => (link ?? "").replace(/^#/, "").split("#")[0] || "/";
    const current = routeOf(location.hash);
    if (expected !== undefined && current !== routeOf(expected)) return false;
    const items = Array.from(document.querySelectorAll('[data-component-name="Menu/MenuItem"]'));
    // Redoc may leave the introduction's item marked active too (after a load with a route); the route's own item must be.
    const active = items.filter(
      (item) =>
        item.querySelector(':scope > a > [data-testid="menu-item-label"]')?.getAttribute("data-active") === "true",
    );
    if (!active.some((item) => routeOf(item.querySelector(":scope > a")?.getAttribute("href")) === current))
      return false;
    return items
      .filter((item) => item.classList.contains("menu-item-type-group"))
      .every((group) => {
        const panel = group.querySelector<HTMLElement>(":scope > div");
        if (!panel) return false;
        const expanded =
          group.querySelector(':scope > a [data-component-name="icons/ChevronDownIcon/ChevronDownIcon"]') !== null;
        if (expanded !== active.some((item) => group.contains(item))) return false;
        // Redoc animates the panel's inline height; at rest an open panel has none, a closed one is display: none and empty.
        if (panel.style.transition !== "") return false;
        return expanded
          ? panel.style.display !== "none" &&
              panel.style.height === "" &&
              panel.style.pointerEvents !== "none" &&
              panel.children.length > 0
          : panel.style.display === "none" && panel.children.length === 0;
      });
  }, route);
}

/** Opens an operation from the menu (expanding its tag when collapsed); returns its section. */
async function openFromMenu(target: Page, op: Operation) {
  await menuSettled(target);
  const group = groupMenuItem(target, op.tag).first();
  // Redoc's own expanded state (the label's chevron), read on a settled menu: clicking an expanded group would collapse it.
  const expanded =
    (await group.locator(':scope > a [data-component-name="icons/ChevronDownIcon/ChevronDownIcon"]').count()) > 0;
  if (!expanded) {
    const groupLink = group.locator(":scope > a");
    const groupHref = await groupLink.getAttribute("href");
    await groupLink.click();
    await menuSettled(target, groupHref!);
  }
  const item = operationMenuItem(target, op).first();
  expect(await item.isVisible(), `${op.operationId}: menu item under its expanded tag`).toBe(true);
  const link = item.locator(":scope > a");
  const href = await link.getAttribute("href");
  expect(href, `${op.operationId}: menu link`).toMatch(/^#\//);
  await link.click();
  await target.waitForFunction((hash) => location.hash === hash, href);
  const section = target.locator(`[id="${href!.slice(2)}"]`);
  await section.waitFor({ state: "visible" });
  return section;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The section's TypeScript sample (the code block that imports the package) measured at both ends of its
 * horizontal scroll: the boxes of its Copy button, of its first line's text and of the package name's text.
 */
async function measureSample(section: Locator) {
  return section.evaluate((node, name) => {
    const block = Array.from(node.querySelectorAll('[data-component-name="CodeBlock/CodeBlock"]')).find((b) =>
      b.querySelector("code")?.textContent?.includes(name),
    );
    const code = block?.querySelector("code");
    const pre = block?.querySelector("pre");
    const button = block?.querySelector('[data-testid="copy-button"]');
    if (!block || !code || !pre || !button) return { found: false as const };
    const text = code.textContent ?? "";
    /** A DOM range over the code's text from offset start to offset end. */
    const rangeOf = (start: number, end: number) => {
      const range = document.createRange();
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      let offset = 0;
      let started = false;
      for (let textNode = walker.nextNode(); textNode; textNode = walker.nextNode()) {
        const length = textNode.textContent?.length ?? 0;
        if (!started && start <= offset + length) {
          range.setStart(textNode, start - offset);
          started = true;
        }
        if (started && end <= offset + length) {
          range.setEnd(textNode, end - offset);
          break;
        }
        offset += length;
      }
      return range;
    };
    const lineEnd = text.indexOf("\n") === -1 ? text.length : text.indexOf("\n");
    const nameStart = text.indexOf(name);
    const firstLine = rangeOf(0, lineEnd);
    const packageText = rangeOf(nameStart, nameStart + name.length);
    const box = (rect: DOMRect) => ({ x: rect.x, y: rect.y, width: rect.width, height: rect.height });
    const scrolls = [0, pre.scrollWidth - pre.clientWidth];
    const measures = scrolls.map((scrollLeft) => {
      pre.scrollLeft = scrollLeft;
      return {
        scrollLeft: pre.scrollLeft,
        button: box(button.getBoundingClientRect()),
        firstLine: box(firstLine.getBoundingClientRect()),
        packageName: box(packageText.getBoundingClientRect()),
      };
    });
    pre.scrollLeft = 0;
    return { found: true as const, firstLine: text.slice(0, lineEnd), measures };
  }, packageName);
}

/** The Copy button of the section's TypeScript sample covers nothing of its first line, at either end of its scroll. */
async function expectSampleUncovered(section: Locator, label: string) {
  const sample = await measureSample(section);
  expect(sample.found, `${label}: a TypeScript sample with its Copy button`).toBe(true);
  if (!sample.found) return;
  expect(sample.firstLine, `${label}: the sample's first line imports the package`).toContain(packageName);
  for (const measure of sample.measures) {
    const at = `${label}, scrolled ${measure.scrollLeft}px`;
    expect(measure.button.width * measure.button.height, `${at}: the Copy button is shown`).toBeGreaterThan(0);
    expect(measure.packageName.width, `${at}: the package name is laid out`).toBeGreaterThan(0);
    expect(overlaps(measure.button, measure.packageName), `${at}: the Copy button covers the package name`).toBe(false);
    expect(overlaps(measure.button, measure.firstLine), `${at}: the Copy button covers the first line`).toBe(false);
  }
}

/** Markdown as Redoc's search shows it: no emphasis, code or link syntax, no list markers, heading marks or table pipes. */
const searchText = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, "")
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, "")
    .replace(/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/gm, "")
    .replace(/\|/g, " ")
    .replace(/\*\*|[*`]/g, "");
const words = (text: string) => text.split(/\s+/).filter(Boolean);
/** A word without the punctuation around it ("(for" is "for"). */
const core = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");

/** Every string of the spec, keys too. */
function specStrings(node: unknown, out: string[] = []): string[] {
  if (typeof node === "string") out.push(node);
  else if (Array.isArray(node)) for (const item of node) specStrings(item, out);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      out.push(key);
      specStrings(value, out);
    }
  return out;
}

/** Every Markdown description of the spec, with the path that leads to it. */
function descriptions(node: unknown, at = "", out: { at: string; markdown: string }[] = []) {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      descriptions(item, `${at}/${index}`, out);
    });
  } else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") out.push({ at, markdown: value });
      else if (key !== "example" && key !== "examples") descriptions(value, `${at}/${key}`, out);
    }
  return out;
}

/** Two pieces of text that the page shows apart but a search index could join: the last word of one, the first of the other. */
interface Seam {
  where: string;
  before: string;
  after: string;
  /** Words to search for: the nearest word (letters or digits) on each side. */
  query: string;
}

function seam(where: string, beforeText: string, afterText: string): Seam | undefined {
  const before = words(searchText(beforeText));
  const after = words(searchText(afterText));
  const left = [...before].reverse().find((word) => core(word) !== "");
  const right = after.find((word) => core(word) !== "");
  if (!before.length || !after.length || !left || !right) return undefined;
  return { where, before: before.at(-1)!, after: after[0]!, query: `${core(left)} ${core(right)}` };
}

/**
 * The seams of a description: between its first two list items of each list, its first two table cells of
 * each table (the first body row) and, when `softBreaks`, the first soft line break of a paragraph.
 */
function seams(where: string, markdown: string, softBreaks: boolean): Seam[] {
  const out: (Seam | undefined)[] = [];
  const lines = markdown.split("\n");
  const blockStart = /^\s*(?:#|[-*+]\s|\d+[.)]\s|\||>|```|~~~)/;
  const listItem = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
  const delimiter = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$/;
  const cells = (row: string) =>
    row.split(/(?<!\\)\|/).filter((cell, i, all) => cell.trim() !== "" || (i > 0 && i < all.length - 1));
  const textLine = (line: string | undefined) =>
    line !== undefined && line.trim() !== "" && !blockStart.test(line) && !delimiter.test(line);
  /** A list item's text, which runs on over the lines after it that start no block, and the index of the line after it. */
  const item = (start: number) => {
    let text = listItem.exec(lines[start]!)![1]!;
    let end = start + 1;
    for (; textLine(lines[end]); end++) text += ` ${lines[end]!.trim()}`;
    return { text, end };
  };
  let fenced = false;
  let inList = false;
  let softBreakSeen = !softBreaks;
  lines.forEach((line, index) => {
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const next = lines[index + 1];
    if (listItem.test(line) && !inList) {
      const first = item(index);
      if (first.end < lines.length && listItem.test(lines[first.end]!))
        out.push(seam(`${where}: list items`, first.text, item(first.end).text));
    }
    if (line.trim() === "") inList = false;
    else if (listItem.test(line)) inList = true;
    if (delimiter.test(line) && next?.includes("|")) {
      const row = cells(next);
      if (row.length > 1) out.push(seam(`${where}: table cells`, row[0]!, row[1]!));
    }
    if (!softBreakSeen && textLine(line) && textLine(next)) {
      out.push(seam(`${where}: soft line break`, line, next!));
      softBreakSeen = true;
    }
  });
  return out.filter((s): s is Seam => s !== undefined);
}

/**
 * Whether the word is two or more words of the vocabulary written together ("thetrade", "keyevery",
 * "{}.getWalletBalanceByCode"): not a word of the vocabulary itself, but a sequence of them.
 */
function gluedWord(word: string, vocabulary: Set<string>): boolean {
  // The word as written ("{}.getWalletBalanceByCode"), then without the punctuation around it ("keyevery,").
  return [word, core(word)].some((written) => {
    const candidate = written.toLowerCase();
    if (candidate === "" || vocabulary.has(candidate)) return false;
    // reachable[i]: candidate.slice(0, i) is a sequence of words of at least two characters each.
    const reachable = [true, ...Array.from({ length: candidate.length }, () => false)];
    for (let end = 2; end <= candidate.length; end++)
      for (let start = 0; start <= end - 2 && !reachable[end]; start++)
        if (reachable[start] && vocabulary.has(candidate.slice(start, end))) reachable[end] = true;
    return reachable[candidate.length] === true;
  });
}

/** Pixel standard deviation of a screenshot, decoded by the browser itself (no image library). */
async function pixelSpread(target: Page, png: Buffer): Promise<number> {
  return target.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const ctx = canvas.getContext("2d")!;
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, image.width, image.height);
    let sum = 0;
    let sumSq = 0;
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const lum = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
      sum += lum;
      sumSq += lum * lum;
    }
    return Math.sqrt(sumSq / n - (sum / n) ** 2);
  }, png.toString("base64"));
}

describe("docs page in Chromium", () => {
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (never \`playwright install\`)`);
    if (!existsSync(PAGE_FILE)) throw new Error(`${PAGE_FILE} is missing: run \`npm run build\``);
    await mkdir(SCREENSHOTS, { recursive: true });
    docs = await startDocsServer({ host: "127.0.0.1", port: 0 });
    userDataDir = await mkdtemp(path.join(tmpdir(), "docs-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 800 },
    });
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === "file:" || url.hostname === "127.0.0.1") return route.continue();
      externalRequests.push(url.href);
      return route.abort();
    });
    page = context.pages()[0] ?? (await context.newPage());
    watch(page, docs.url);

    const started = performance.now();
    const response = await page.goto(docs.url, { waitUntil: "load" });
    const loadedMs = performance.now() - started;
    await menuItems().first().waitFor({ state: "visible" });
    const interactiveMs = performance.now() - started;
    const transferred = (await response!.body()).length;
    const onDisk = (await stat(PAGE_FILE)).size;
    console.log(
      `docs page: ${(onDisk / 1024).toFixed(0)} KiB on disk, ${(transferred / 1024).toFixed(0)} KiB served; ` +
        `load event ${loadedMs.toFixed(0)} ms, menu visible ${interactiveMs.toFixed(0)} ms (${docs.url})`,
    );
    expect(response!.status()).toBe(200);
  });

  // Each step runs even when an earlier one throws: the browser, the server and the profile folder.
  afterAll(async () => {
    try {
      await context?.close();
    } finally {
      try {
        await docs?.close();
      } finally {
        if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
      }
    }
  });

  it("renders the introduction, not a blank page", async () => {
    const title = page.locator('[data-component-name="Typography/H1"]').first();
    await title.waitFor({ state: "visible" });
    expect(await title.innerText()).toContain(info.title);
    // Each section heading of info.description is in the menu.
    const headings = [...info.description.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    expect(headings.length).toBeGreaterThan(0);
    for (const heading of headings) {
      await menuItems().filter({ hasText: heading }).first().waitFor({ state: "visible" });
    }
    const firstSentence = plain(info.description.split(/\n\n/)[0]!).slice(0, 60);
    expect(plain(await page.locator("body").innerText())).toContain(firstSentence);

    const bodyText = await page.locator("body").innerText();
    expect(bodyText.length).toBeGreaterThan(2000);
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "landing.png") });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
  });

  it("reaches every operation from the menu, with its method, path, summary and code sample", async () => {
    expect(operations.length).toBeGreaterThan(0);
    // Tags start collapsed: the first operation is hidden until its tag is opened.
    expect(await operationMenuItem(page, operations[0]!).first().isVisible()).toBe(false);
    for (const op of operations) {
      const section = await openFromMenu(page, op);
      const text = await section.innerText();
      expect(text, op.operationId).toContain(op.summary);
      expect(text, op.operationId).toContain(op.method);
      expect(text, op.operationId).toContain(op.path);
      expect(text, `${op.operationId}: TypeScript sample`).toContain(`client.${op.method}(${JSON.stringify(op.path)}`);
      await expectSampleUncovered(section, op.operationId);
    }
  });

  it('finds "quote" with the search box and leads to Create Quote', async () => {
    const createQuote = operations.find((op) => /^create quote$/i.test(op.summary));
    expect(createQuote, "an operation summarised Create Quote").toBeDefined();
    await page
      .getByText(/^Search/)
      .first()
      .click();
    const input = page.locator('[data-component-name="Search/SearchInput"] input, input[type="search"], input').first();
    await input.waitFor({ state: "visible" });
    await input.fill("quote");
    const results = page.locator('[data-component-name="Search/SearchItem"]');
    await results.first().waitFor({ state: "visible" });
    const texts = await results.allInnerTexts();
    for (const op of operations.filter((o) => /quote/i.test(o.summary))) {
      expect(
        texts.some((t) => t.includes(op.summary) && t.includes(op.path)),
        `search result for ${op.summary}`,
      ).toBe(true);
    }
    await results.filter({ hasText: createQuote!.summary }).filter({ hasText: createQuote!.path }).first().click();
    const href = await operationMenuItem(page, createQuote!).first().locator(":scope > a").getAttribute("href");
    await page.waitForFunction((hash) => location.hash === hash, href);
    const section = page.locator(`[id="${href!.slice(2)}"]`);
    await section.waitFor({ state: "visible" });
    expect(await section.innerText()).toContain(createQuote!.summary);
  });

  it("shows search snippets with the words apart, as the descriptions have them", async () => {
    // Where a description puts words on two lines, in two list items or in two table cells, a search
    // index may write them together ("thetrade", "API keyevery request"): search for the words on both
    // sides of each such seam and look at the snippets.
    const sources = descriptions(spec);
    const firstOperationBreak = sources
      .filter((source) => source.at.startsWith("/paths/"))
      .map((source) => seams(source.at, source.markdown, true).find((s) => s.where.endsWith("soft line break")))
      .find((s) => s !== undefined);
    expect(firstOperationBreak, "an operation description with a soft line break").toBeDefined();
    const found = [
      ...seams("info.description", info.description, true),
      firstOperationBreak!,
      ...sources.flatMap((source) => seams(source.at, source.markdown, false)),
      ...register.kinds
        .filter((kind) => kind.entries.length > 1)
        .map((kind) => seam(`register ${kind.key}: list items`, kind.entries[0]!.text, kind.entries[1]!.place)),
    ].filter((s): s is Seam => s !== undefined);
    const allSeams = [...new Map(found.map((s) => [`${s.query}|${s.before}|${s.after}`, s])).values()];
    expect(allSeams.some((s) => s.where.endsWith("list items"))).toBe(true);
    expect(allSeams.some((s) => s.where.endsWith("table cells"))).toBe(true);
    expect(allSeams.some((s) => s.where.endsWith("soft line break"))).toBe(true);

    const vocabulary = new Set<string>();
    const registerStrings = register.kinds.flatMap((kind) =>
      kind.entries.flatMap((entry) => [entry.place, entry.text]),
    );
    for (const text of [...specStrings(spec), ...registerStrings])
      for (const word of words(searchText(text))) {
        vocabulary.add(word.toLowerCase());
        vocabulary.add(core(word).toLowerCase());
      }

    const dialog = page.locator('[data-testid="search-dialog"]');
    await page
      .getByText(/^Search/)
      .first()
      .click();
    const input = dialog.locator("input").first();
    const results = dialog.locator('[data-component-name="Search/SearchItem"]');
    const snippets = new Map<string, string[]>();
    try {
      await input.waitFor({ state: "visible" });
      for (const query of [...new Set(["quote", "trade", ...allSeams.map((s) => s.query)])]) {
        // Empty the box first, so the results read are the new query's, not the last one's.
        await input.fill("");
        await results.first().waitFor({ state: "detached" });
        await input.fill(query);
        await results.first().waitFor({ state: "visible" });
        snippets.set(query, await results.allInnerTexts());
      }
    } finally {
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }

    const glued = [...snippets].flatMap(([query, texts]) =>
      texts.flatMap((t) =>
        words(t.replace(/\.\.\.|…/g, " "))
          .filter((word) => gluedWord(word, vocabulary))
          .map((word) => `${query}: ${word}`),
      ),
    );
    expect(glued, "snippet words that are two words of the descriptions run together").toEqual([]);
    for (const s of allSeams) {
      const texts = snippets.get(s.query)!;
      expect(
        texts.some((t) => t.includes(`${s.before} ${s.after}`)),
        `${s.where}: a snippet for "${s.query}" shows "${s.before} ${s.after}"`,
      ).toBe(true);
      expect(
        texts.filter((t) => t.includes(`${s.before}${s.after}`)),
        `${s.where}: snippets for "${s.query}" with "${s.before}${s.after}"`,
      ).toEqual([]);
    }
  });

  it("shows an operation's response fields and example", async () => {
    const op = operations.find((o) => /^create quote$/i.test(o.summary))!;
    const section = await openFromMenu(page, op);
    const status = successKey(op.spec);
    const media = jsonMedia(op.spec.responses[status]);
    const example = mediaExamples(spec, media)[0]?.value;
    expect(example, `the ${status} response has an example`).toBeDefined();
    const fields = propertyNames(media!.schema);
    expect(fields.length).toBeGreaterThan(0);
    const text = await section.innerText();
    for (const field of fields) expect(text).toMatch(new RegExp(`^${escapeRegExp(field)}$`, "m"));
    // The example panel shows the example's values.
    const responsePanel = section.locator(".panel-response-samples, [class*='response-samples']").first();
    await responsePanel.waitFor({ state: "visible" });
    const panelText = await responsePanel.innerText();
    for (const [key, value] of Object.entries(example as Record<string, unknown>)) {
      expect(panelText).toContain(`"${key}"`);
      if (typeof value === "string") expect(panelText).toContain(JSON.stringify(value));
    }
    for (const key of Object.keys((example as { data?: object }).data ?? {}).slice(0, 5))
      expect(panelText).toContain(`"${key}"`);
    await section.scrollIntoViewIfNeeded();
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "operation.png") });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
    await section
      .getByText("Responses", { exact: true })
      .first()
      .evaluate((el) => el.scrollIntoView({ block: "start" }));
    const responsePng = await page.screenshot({ path: path.join(SCREENSHOTS, "operation-response.png") });
    expect(await pixelSpread(page, responsePng)).toBeGreaterThan(10);
  });

  it("keeps the Copy button of a code sample off the code", async () => {
    const op = operations.find((o) => /^create quote$/i.test(o.summary))!;
    const section = await openFromMenu(page, op);
    await expectSampleUncovered(section, op.operationId);
    // Screenshots of the sample at both ends of its horizontal scroll, the package name at the end of the first line.
    const block = section.locator('[data-component-name="CodeBlock/CodeBlock"]', { hasText: packageName }).first();
    await block.scrollIntoViewIfNeeded();
    const png = await block.screenshot({ path: path.join(SCREENSHOTS, "code-sample.png") });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
    await block.locator("pre").evaluate((pre) => {
      pre.scrollLeft = pre.scrollWidth;
    });
    const scrolledPng = await block.screenshot({ path: path.join(SCREENSHOTS, "code-sample-scrolled.png") });
    expect(await pixelSpread(page, scrolledPng)).toBeGreaterThan(10);
    await block.locator("pre").evaluate((pre) => {
      pre.scrollLeft = 0;
    });
  });

  // One section per kind of provenance marker (observed, not shown, conventions), each listing its markers.
  it.each(PROVENANCE_KINDS.map((kind) => [kind.heading, kind] as const))(
    "has the register section %s",
    async (heading, kind) => {
      const entries = register.kinds.find((k) => k.key === kind.key)?.entries ?? [];
      expect(entries.length, `${kind.key} markers in generated/provenance.json`).toBeGreaterThan(0);
      const route = sectionRoute(heading);
      const item = menuItems()
        .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(heading)}\\s*$`) })
        .first();
      await item.locator(":scope > a").click();
      const title = page.locator(`h2[id="${route}"]`);
      await title.waitFor({ state: "visible" });
      // The menu link scrolled the page to the section.
      await expect.poll(async () => (await title.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
      await expect.poll(async () => (await title.boundingBox())?.y ?? Infinity).toBeLessThan(400);
      await expect.poll(() => page.url()).toContain(`#/${route}`);
      expect(await title.innerText()).toContain(heading);
      // The register is the first numbered list after the heading, one item per marker.
      const list = title.locator("xpath=following::ol[1]");
      await list.waitFor({ state: "visible" });
      const items = (await list.locator(":scope > li").allInnerTexts()).map(plain);
      expect(items).toHaveLength(entries.length);
      entries.forEach((entry, index) => {
        expect(items[index]).toContain(plain(entry.place));
        expect(items[index]).toContain(plain(entry.text));
      });
    },
  );

  it("lists a literal path before the template it wins over (Get Wallet Balance, then other codes)", async () => {
    const literal = operations.find(
      (op) =>
        op.method === "GET" &&
        !op.path.includes("{") &&
        operations.some((other) => templateMatches(other.path, op.path) && other !== op),
    );
    expect(literal, "a literal path that a template also matches").toBeDefined();
    const template = operations.find((op) => op !== literal && templateMatches(op.path, literal!.path))!;
    const literalSection = await openFromMenu(page, literal!);
    const templateSection = await openFromMenu(page, template);
    const templateHandle = await templateSection.elementHandle();
    const templateFollows = await literalSection.evaluate(
      (node, other) => Boolean(node.compareDocumentPosition(other!) & Node.DOCUMENT_POSITION_FOLLOWING),
      templateHandle,
    );
    expect(templateFollows, "the template's section comes after the literal path's").toBe(true);
    // The template's sample calls it with another value than the literal segment.
    const sample = await templateSection.innerText();
    expect(sample).toContain(`client.GET(${JSON.stringify(template.path)}`);
    const literalSegment = literal!.path.split("/").at(-1)!;
    expect(sample).not.toMatch(new RegExp(`: ${JSON.stringify(literalSegment)}`));
  });

  it("works from file:// too", async () => {
    const filePage = await context.newPage();
    watch(filePage, "file://");
    try {
      await filePage.goto(pathToFileURL(PAGE_FILE).href, { waitUntil: "load" });
      const op = operations[operations.length - 1]!;
      await filePage.locator('[data-component-name="Menu/MenuItem"]').first().waitFor({ state: "visible" });
      const section = await openFromMenu(filePage, op);
      expect(await section.innerText()).toContain(op.path);
    } finally {
      await filePage.close();
    }
  });

  it("logged no console error, failed no same-origin request and asked for nothing outside 127.0.0.1", () => {
    expect(consoleErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(externalRequests).toEqual([]);
  });
});
