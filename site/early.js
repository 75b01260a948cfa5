// early.js starts what the page needs soonest: main.wasm's download, the
// longest wait of a page load. It runs right after engine.js, before the
// page's other scripts have run (with the CPU 4× slower, that asks for
// main.wasm 70 to 125 ms before app.js would); the page's engine takes the
// request over when it starts (RlabEngine.prefetch). The page's own script
// and style have arrived by then, so the download takes no bandwidth from
// them.
import {RlabEngine} from "./engine.js";

RlabEngine.prefetch("main.wasm");
