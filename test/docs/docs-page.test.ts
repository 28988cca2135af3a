// The docs page (generated/docs/index.html) as a person sees it: Debian's Chromium, driven by
// playwright-core, with every request that leaves 127.0.0.1 or file:// aborted (the page must work
// offline). Operations, examples and the provenance register are read from generated/, never listed here.
// One browser for the whole file; Redoc's menu and the search seams are driven and computed in test/docs/support/.
import { existsSync } from "node:fs";
import { mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM } from "../../scripts/lib/chromium.js";
import { startDocsServer, type DocsServer } from "../../scripts/serve-docs.js";
import { registerList } from "../../scripts/build/steps/50-docs.js";
import { launchOfflineChromium, type OfflineChromium } from "./support/offline-chromium.js";
import {
  PROVENANCE_HEADING,
  PROVENANCE_KINDS,
  type ProvenanceEntry,
  type SourceUse,
  sourceTitles,
} from "../../scripts/build/provenance.js";
import {
  deref,
  jsonMedia,
  listSpecOperations,
  loadSpec,
  mediaExamples,
  successKey,
  type SpecOperation,
} from "../support/spec.js";
import {
  escapeRegExp,
  expectSampleUncovered,
  type MenuOperation,
  openFromMenu,
  operationMenuItem,
  pixelSpread,
  sectionShown,
} from "./support/redoc.js";
import {
  descriptions,
  gluedWord,
  type Seam,
  seam,
  seams,
  specStrings,
  vocabularyOf,
  words,
} from "./support/search-seams.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PAGE_FILE = path.join(root, "generated", "docs", "index.html");
const SCREENSHOTS = path.join(root, "test-output", "docs");
// Redoc's route (and heading id) for an introduction section.
const sectionRoute = (heading: string) => `section/${heading.toLowerCase().replace(/\s+/g, "-")}`;

interface Operation extends MenuOperation {
  path: string;
  spec: SpecOperation;
}

const spec = loadSpec();
const info = spec.info as { title: string; description: string };
const register: { sources: SourceUse[]; kinds: { key: string; heading: string; entries: ProvenanceEntry[] }[] } =
  JSON.parse(await readFile(path.join(root, "generated", "provenance.json"), "utf8"));
/** The titles of an entry's sources (none for a kind without sources), as the register names them. */
const titlesOf = (entry: ProvenanceEntry) => sourceTitles(entry, register.sources);

// The TypeScript samples import the client from this package (their first line).
const packageName = String(JSON.parse(await readFile(path.join(root, "package.json"), "utf8")).name);

const tagLabels = new Map<string, string>(
  ((spec.tags ?? []) as any[]).map((t: any) => [t.name, t["x-displayName"] ?? t.name]),
);
/** The label of the menu group an operation is listed under: its first tag's. */
const tagLabelOf = (op: SpecOperation) => {
  const tag = String((op.operation.tags as string[])[0]);
  return tagLabels.get(tag) ?? tag;
};
const operations: Operation[] = listSpecOperations().map((op) => ({
  method: op.method,
  path: op.path,
  summary: String(op.operation.summary),
  operationId: op.operationId,
  tagLabel: tagLabelOf(op),
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
/** Markdown as the page's text shows it: no emphasis or code marks, whitespace collapsed. */
const withoutMarkup = (markdown: string) => markdown.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();

/** Top-level property names of a schema, through $ref and allOf. */
function propertyNames(schema: unknown): string[] {
  const resolved = deref(spec, schema) as Record<string, any> | undefined;
  if (!resolved) return [];
  return [...Object.keys(resolved.properties ?? {}), ...(resolved.allOf ?? []).flatMap(propertyNames)];
}

let docs: DocsServer;
let context: BrowserContext;
let page: Page;
let browser: OfflineChromium | undefined;
const consoleErrors: string[] = [];
const failedRequests: string[] = [];

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

describe("docs page in Chromium", () => {
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (never \`playwright install\`)`);
    if (!existsSync(PAGE_FILE)) throw new Error(`${PAGE_FILE} is missing: run \`npm run build\``);
    await mkdir(SCREENSHOTS, { recursive: true });
    docs = await startDocsServer({ host: "127.0.0.1", port: 0 });
    browser = await launchOfflineChromium("docs");
    ({ context, page } = browser);
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

  // Each step runs even when an earlier one throws: the browser (and its profile folder), then the server.
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await docs?.close();
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
    const firstSentence = withoutMarkup(info.description.split(/\n\n/)[0]!).slice(0, 60);
    expect(withoutMarkup(await page.locator("body").innerText())).toContain(firstSentence);

    const bodyText = await page.locator("body").innerText();
    expect(bodyText.length).toBeGreaterThan(2000);
    const png = await page.screenshot({ path: path.join(SCREENSHOTS, "landing.png") });
    expect(await pixelSpread(page, png)).toBeGreaterThan(10);
  });

  it("starts with the tags collapsed: the first operation is hidden until its tag is opened", async () => {
    expect(operations.length).toBeGreaterThan(0);
    expect(await operationMenuItem(page, operations[0]!).first().isVisible()).toBe(false);
  });

  // One test per operation, in the menu's order: each opens its tag (and so collapses the one before).
  it.for(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "reaches %s from the menu, with its method, path, summary and code sample",
    async ([, op]) => {
      const section = await openFromMenu(page, op);
      const text = await section.innerText();
      expect(text, op.operationId).toContain(op.summary);
      expect(text, op.operationId).toContain(op.method);
      expect(text, op.operationId).toContain(op.path);
      expect(text, `${op.operationId}: TypeScript sample`).toContain(`client.${op.method}(${JSON.stringify(op.path)}`);
      await expectSampleUncovered(section, op.operationId, packageName);
    },
  );

  // The webhooks (the requests the service sends): Redoc lists them under their tag, after its operations.
  const webhooks = Object.entries(spec.webhooks ?? {}).map(([name, item]) => {
    const post = deref(spec, (item as Record<string, unknown>).post) as Record<string, any>;
    const body = deref(spec, post.requestBody) as Record<string, any>;
    return {
      name,
      method: "post",
      summary: String(post.summary),
      operationId: String(post.operationId),
      tagLabel: tagLabels.get(String(post.tags[0])) ?? String(post.tags[0]),
      header: String((deref(spec, post.parameters[0]) as Record<string, unknown>).name),
      fields: propertyNames(body.content["application/json"].schema),
    };
  });
  it("finds the webhooks in the spec", () => {
    expect(webhooks.length).toBeGreaterThan(0);
  });
  it.for(webhooks.map((webhook) => [webhook.name, webhook] as const))(
    "reaches the webhook %s from the menu, with its summary, signature header and payload fields",
    async ([, webhook]) => {
      const text = await (await openFromMenu(page, webhook)).innerText();
      expect(text).toContain(webhook.summary);
      expect(text).toContain(webhook.header);
      expect(webhook.fields).toContain("transactionId");
      for (const field of webhook.fields) expect(text, field).toContain(field);
    },
  );

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
    await sectionShown(page, href!.slice(2));
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
        .map((kind) => {
          // The first item as the build writes it (a sourced entry's ends with its sources' titles).
          const markdown = registerList(
            { ...PROVENANCE_KINDS.find((k) => k.key === kind.key)!, entries: kind.entries },
            register.sources,
          );
          const first = markdown.split("\n").find((line) => line.startsWith("1. "))!;
          return seam(`register ${kind.key}: list items`, first, kind.entries[1]!.place);
        }),
    ].filter((s): s is Seam => s !== undefined);
    const allSeams = [...new Map(found.map((s) => [`${s.query}|${s.before}|${s.after}`, s])).values()];
    expect(allSeams.some((s) => s.where.endsWith("list items"))).toBe(true);
    expect(allSeams.some((s) => s.where.endsWith("table cells"))).toBe(true);
    expect(allSeams.some((s) => s.where.endsWith("soft line break"))).toBe(true);

    const registerStrings = [
      ...register.kinds.flatMap((kind) => kind.entries.flatMap((entry) => [entry.place, entry.text])),
      ...register.sources.flatMap((source) => [source.id, source.kind, source.title]),
    ];
    const vocabulary = vocabularyOf([...specStrings(spec), ...registerStrings]);

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
    await expectSampleUncovered(section, op.operationId, packageName);
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

  /** Opens the introduction's section `heading` from the menu; resolves with its heading, scrolled into view. */
  async function openSection(heading: string) {
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
    return title;
  }

  // One section per kind of provenance marker (observed, published, not shown, conventions), each listing its
  // markers, each sourced marker with its sources by title (a kind without markers says so).
  it.each(PROVENANCE_KINDS.map((kind) => [kind.heading, kind] as const))(
    "has the register section %s",
    async (heading, kind) => {
      const entries = register.kinds.find((k) => k.key === kind.key)?.entries;
      expect(entries, `${kind.key} in generated/provenance.json`).toBeDefined();
      const title = await openSection(heading);
      if (entries!.length === 0) {
        // The paragraph after the register's lead-in says None.
        const lead = title.locator("xpath=following::p[starts-with(normalize-space(), 'The register of')][1]");
        expect(await lead.innerText()).toContain(`${kind.key}`);
        expect((await lead.locator("xpath=following::p[1]").innerText()).trim()).toBe("None.");
        return;
      }
      // The register is the first numbered list after the heading, one item per marker.
      const list = title.locator("xpath=following::ol[1]");
      await list.waitFor({ state: "visible" });
      const items = (await list.locator(":scope > li").allInnerTexts()).map(withoutMarkup);
      expect(items).toHaveLength(entries!.length);
      entries!.forEach((entry, index) => {
        expect(items[index]).toContain(withoutMarkup(entry.place));
        expect(items[index]).toContain(withoutMarkup(entry.text));
        for (const name of titlesOf(entry)) expect(items[index], entry.pointer).toContain(withoutMarkup(name));
        expect(items[index]!.includes("(source"), entry.pointer).toBe(kind.sourced);
      });
    },
  );

  it(`has the table of sources in the section ${PROVENANCE_HEADING}, with the elements each supports`, async () => {
    expect(register.sources.length).toBeGreaterThan(0);
    const title = await openSection(PROVENANCE_HEADING);
    const table = title.locator("xpath=following::table[1]");
    await table.waitFor({ state: "visible" });
    const rows = await table
      .locator("tbody > tr")
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => (td.textContent ?? "").trim())),
      );
    expect(rows).toEqual(
      register.sources.map((source) => [source.id, source.kind, source.title, String(source.elements)]),
    );
  });

  /** [literal, template] pairs: a GET literal path that a template also matches (/wallets/USDT, /wallets/me, ...). */
  const literalPairs = operations.flatMap((literal) =>
    literal.method === "GET" && !literal.path.includes("{")
      ? operations
          .filter((op) => op !== literal && op.method === literal.method && templateMatches(op.path, literal.path))
          .map((template) => [`${literal.path} before ${template.path}`, literal, template] as const)
      : [],
  );

  it("finds the literal paths that win over a template (/wallets/USDT, /wallets/me, /transactions/me)", () => {
    expect(literalPairs.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "/wallets/USDT before /wallets/{currencyCode}",
        "/wallets/me before /wallets/{currencyCode}",
        "/transactions/me before /transactions/{transactionId}",
      ]),
    );
  });

  it.each(literalPairs)("lists a literal path before the template it wins over: %s", async (_, literal, template) => {
    const literalSection = await openFromMenu(page, literal);
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
    const literalSegment = literal.path.split("/").at(-1)!;
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
    expect(browser!.externalRequests).toEqual([]);
  });
});
