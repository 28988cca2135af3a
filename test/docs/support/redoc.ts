// Driving Redoc's page in playwright-core: its menu (an animated accordion of tag groups, read and clicked only
// once settled), an operation opened from it, the measure of a code sample's Copy button against the code, and the
// pixel spread of a screenshot (a blank page has none). Used by test/docs/docs-page.test.ts.
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** What the menu shows of an operation: its summary and method, under its tag's label. */
export interface MenuOperation {
  method: string;
  summary: string;
  operationId: string;
  /** The label of the tag group it is listed under (the tag's x-displayName, or its name). */
  tagLabel: string;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function operationMenuItem(target: Page, op: MenuOperation) {
  const label = new RegExp(`^\\s*${escapeRegExp(op.summary)}\\s*${op.method}\\s*$`, "i");
  return target
    .locator('[data-component-name="Menu/MenuItem"].menu-item-type-operation')
    .filter({ has: target.locator(":scope > a", { hasText: label }) });
}

function groupMenuItem(target: Page, tagLabel: string) {
  const label = new RegExp(`^\\s*${escapeRegExp(tagLabel)}\\s*$`);
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
    // "#/trades/createquote", "/trades" and "" (the introduction, "/") name routes; a second "#" is a place in the
    // page.
    const routeOf = (link: string | null | undefined) => (link ?? "").replace(/^#/, "").split("#")[0] || "/";
    const current = routeOf(location.hash);
    if (expected !== undefined && current !== routeOf(expected)) return false;
    const items = Array.from(document.querySelectorAll('[data-component-name="Menu/MenuItem"]'));
    // Redoc may leave the introduction's item marked active too (after a load with a route); the route's own item
    // must be.
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
        // Redoc animates the panel's inline height; at rest an open panel has none, a closed one is display: none
        // and empty.
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
export async function openFromMenu(target: Page, op: MenuOperation) {
  await menuSettled(target);
  const group = groupMenuItem(target, op.tagLabel).first();
  // Redoc's own expanded state (the label's chevron), read on a settled menu: clicking an expanded group would
  // collapse it.
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
  await sectionShown(target, href!.slice(2));
  return section;
}

/**
 * Waits until the section `id` is visible and holds text: Redoc can show a section's box before its content, and on
 * a busy machine a section was read empty.
 */
export async function sectionShown(target: Page, id: string): Promise<void> {
  await target.locator(`[id="${id}"]`).waitFor({ state: "visible" });
  await target.waitForFunction((shown) => (document.getElementById(shown)?.innerText ?? "").trim() !== "", id);
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
async function measureSample(section: Locator, packageName: string) {
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
export async function expectSampleUncovered(section: Locator, label: string, packageName: string) {
  const sample = await measureSample(section, packageName);
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

/** Pixel standard deviation of a screenshot, decoded by the browser itself (no image library). */
export async function pixelSpread(target: Page, png: Buffer): Promise<number> {
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
