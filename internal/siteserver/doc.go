// Package siteserver serves Reconcile Lab's page, the static site in site/,
// the way the page needs it served and the way a static site should load: it
// is what rlab serve runs, and what a test can mount on an httptest server.
//
// Handler serves any fs.FS read-only, answering only GET and HEAD. rlab serve
// gives it an os.Root's FS, which confines every lookup, symbolic links
// included, to the site directory; a request path is cleaned before it is
// looked up, so ".." never leaves the site either.
//
// # Headers
//
// Every response, errors and 304s included, carries ContentSecurityPolicy,
// the policy the page is written for, and X-Content-Type-Options: nosniff,
// so a page that works here also works behind a strict production server.
// The page's files get fixed content types (application/wasm for main.wasm,
// without which WebAssembly.instantiateStreaming refuses it, and
// text/javascript for scripts, without which nosniff blocks them) rather
// than ones the machine's MIME tables could change.
//
// # Precompressed files
//
// Precompress writes FILE.br (brotli) and FILE.gz (gzip) beside each of the
// page's files; rlab compress runs it after make wasm builds main.wasm, with
// brotli at ServedQuality (11, brotli's smallest, what the page's budget is
// on), and the browser suite with TestQuality (5, quick; compress.go has the
// figures). When
// a request for FILE accepts br and FILE.br exists, Handler sends FILE.br's
// bytes with Content-Encoding: br; failing that it tries gzip and FILE.gz,
// and failing that it sends FILE itself. Accept-Encoding is read with its
// weights: a coding is refused by q=0, "*" stands for the codings not named,
// and of two codings the more heavily weighted wins, brotli on a tie.
// A response's Content-Type is always FILE's, and a file with any compressed
// sibling is served with Vary: Accept-Encoding. A response from a sibling
// also carries X-Decoded-Length (DecodedLengthHeader), FILE's own size:
// Content-Length is then the sibling's, and the page counts main.wasm's
// download, which it reads decoded, against FILE's size. A sibling older than FILE is
// stale, as rebuilding FILE without recompressing it leaves it, and is
// ignored, so a rebuilt main.wasm is never shadowed by an old main.wasm.br.
// A request for FILE.br itself gets that file as it is.
//
// # Two scripts
//
// The page's scripts are written as ES modules, one concern each, and
// served as two classic scripts: Bundle joins PageScripts' entries and the
// modules they import into rlab-start.js and rlab.js, which index.html loads
// (rlab bundle runs it in make wasm). JoinScripts, in modules.go, is the
// joiner: it orders the modules by their imports, gives each a scope of its
// own, and turns their import and export statements into plain JavaScript,
// so the page needs no module loader and no eval; a module the first script
// ran, the second takes from the registry the first left. Two requests
// instead of one per module bring a cold page to interactive about 40 ms
// sooner. Why two and not one: the first is small, and on a slow network it
// arrives long before the page, so main.wasm's download starts, and its
// progress shows, half a second sooner (see PageScripts).
//
// # Caching
//
// Every response says Cache-Control: no-cache, so a browser revalidates
// every file on every load and never runs a stale main.wasm. Revalidation is
// cheap: each file carries a strong ETag, a hash of the bytes sent (with -br
// or -gz added for a compressed sibling, so the codings never share one), and
// a request whose If-None-Match still matches gets 304 Not Modified and no
// body. Hashes are remembered per file for as long as its size and
// modification time stay the same, so the 8 MB main.wasm is hashed once per
// build, not once per request.
package siteserver
