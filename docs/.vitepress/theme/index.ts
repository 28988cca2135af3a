// VitePress's default theme with the colour changes of style.css (WCAG AA contrast; axe checks it in
// test/docs/site-in-chromium.test.ts).
import DefaultTheme from "vitepress/theme";
import "./style.css";

export default DefaultTheme;
