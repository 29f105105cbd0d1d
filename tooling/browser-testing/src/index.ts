export { bundlePageScript } from "./bundle-page.js";
export { launchChromium } from "./launch.js";
export { type PageErrors, watchPageErrors } from "./page-errors.js";
export { saveScreenshot } from "./screenshot.js";
