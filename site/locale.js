// locale.js chooses the page's language (i18n.js) as the page loads: the
// first script's second entry (siteserver.PageScripts), right after
// early.js has asked for main.wasm, so that the download that takes longest
// starts first and a page in another language fetches its catalogue beside
// it, before the rest of the page's modules have even arrived.
import {startLocale} from "./i18n.js";

startLocale();
