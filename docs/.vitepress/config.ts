// The docs site (VitePress; `npm run docs` builds it into site/, scripts/docs-site.ts). The TypeScript reference
// (docs/typescript/) and the two Redoc pages (docs/public/api/, docs/public/control-api/) are written by that build
// before VitePress runs: none of them is kept in git.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type DefaultTheme } from "vitepress";

/**
 * A sidebar group without a link of its own is not made collapsible: VitePress would render it as a button
 * holding its caret's button (axe: nested-interactive).
 */
const withoutLinklessToggles = (items: DefaultTheme.SidebarItem[]): DefaultTheme.SidebarItem[] =>
  items.map(({ collapsed, items: children, ...item }) => ({
    ...item,
    ...(item.link === undefined ? {} : { collapsed }),
    ...(children ? { items: withoutLinklessToggles(children) } : {}),
  }));

const sidebarFile = fileURLToPath(new URL("../typescript/typedoc-sidebar.json", import.meta.url));
const typescriptSidebar: DefaultTheme.SidebarItem[] = existsSync(sidebarFile)
  ? withoutLinklessToggles(JSON.parse(readFileSync(sidebarFile, "utf8")))
  : [];

// The Redoc pages are not VitePress pages: `_self` makes the links load them instead of routing inside the site.
const references: DefaultTheme.NavItemWithLink[] = [
  { text: "API reference", link: "/api/index.html", target: "_self" },
  { text: "Control API reference", link: "/control-api/index.html", target: "_self" },
  { text: "TypeScript reference", link: "/typescript/" },
];

export default defineConfig({
  title: "API contract",
  description: "The Trading, Wallet and Settlement Service API: its contract, typed client, mock and sandbox.",
  lang: "en",
  cleanUrls: true,
  outDir: "../site",
  // The Redoc pages are copied in from public/, which the dead-link check does not see.
  ignoreDeadLinks: [/^\/(control-)?api\/index\.html$/],
  // Shiki's high-contrast GitHub themes: the default ones' comments and punctuation fall short of WCAG AA. A sample
  // included from a .mjs file is highlighted as JavaScript (Shiki knows no "mjs").
  markdown: {
    theme: { light: "github-light-high-contrast", dark: "github-dark-high-contrast" },
    languageAlias: { mjs: "js" },
  },
  themeConfig: {
    nav: [
      { text: "Guides", link: "/guide/getting-started" },
      { text: "References", items: references },
    ],
    sidebar: [
      {
        text: "Guides",
        items: [
          { text: "Getting started in five minutes", link: "/guide/getting-started" },
          { text: "The typed client", link: "/guide/client" },
          { text: "The mock", link: "/guide/mock" },
          { text: "The sandbox and its control API", link: "/guide/sandbox" },
          { text: "Webhooks: sending, receiving, verifying", link: "/guide/webhooks" },
          { text: "The register of choices", link: "/guide/register" },
          { text: "Contract tests and verify", link: "/guide/verify" },
          { text: "Where the contract comes from", link: "/guide/provenance" },
          { text: "Versions, releases and the breaking-change gate", link: "/guide/releases" },
          { text: "Working on the package", link: "/guide/contributing" },
        ],
      },
      { text: "References", items: references },
      { text: "TypeScript API", link: "/typescript/", collapsed: true, items: typescriptSidebar },
    ],
    search: { provider: "local" },
    outline: "deep",
  },
});
