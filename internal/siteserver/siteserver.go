package siteserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ContentSecurityPolicy is the policy the page is written for, and that every
// response carries: scripts, styles and fetches only from the site itself;
// 'wasm-unsafe-eval' because compiling WebAssembly counts as eval; data: images
// for the inline favicon; no base, forms or framing. It forbids inline scripts
// and styles, so a page that works under it cannot carry an injected one.
//
// site/index.html repeats it in a <meta> tag for static hosts that cannot set
// headers, minus frame-ancestors, which browsers ignore in <meta>; a test in
// cmd/rlab keeps the two in step.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// DecodedLengthHeader is the response header that gives the size of a file
// served from a compressed sibling, where Content-Length is the sibling's:
// the number of bytes its body decodes to.
const DecodedLengthHeader = "X-Decoded-Length"

// contentTypes fixes the type of the files the page is made of. The mime
// package already knows most of them, but it lets /etc/mime.types override
// its defaults, and a wrong type is fatal here: under nosniff a script not
// served as JavaScript does not run, and instantiateStreaming rejects a .wasm
// file that is not application/wasm.
var contentTypes = map[string]string{
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".json":        "application/json",
	".png":         "image/png",
	".svg":         "image/svg+xml",
	".txtar":       "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
}

// Handler serves the files of site read-only, with the security headers the
// page is written for and the content types it needs. A file with an up-to-date
// FILE.br or FILE.gz beside it (see Precompress) is served from that sibling
// to clients that accept the coding. Every response says Cache-Control:
// no-cache and every file has a strong ETag, so a browser revalidates on
// each load and an unchanged file costs a 304.
//
// site may be any file system; give it an os.Root's FS to confine every
// lookup to one directory.
func Handler(site fs.FS) http.Handler {
	return &handler{
		site:  site,
		files: http.FileServerFS(site),
		tags:  map[string]entityTag{},
	}
}

type handler struct {
	site fs.FS
	// files serves what is not a regular file: it redirects directories to
	// their canonical URL, lists those without an index.html, and reports
	// missing files, as it always has.
	files http.Handler

	mu   sync.Mutex
	tags map[string]entityTag // by file name; see entityTagOf
}

// An entityTag is the hash of one version of a file, which that version's
// size and modification time identify.
type entityTag struct {
	size    int64
	modTime time.Time
	hash    string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setFixedHeaders(w.Header())
	w = &headerKeeper{ResponseWriter: w}

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "this server only serves files", http.StatusMethodNotAllowed)
		return
	}
	if name, ok := fileName(r.URL.Path); ok && h.serveFile(w, r, name) {
		return
	}
	h.files.ServeHTTP(w, r)
}

// setFixedHeaders sets the headers every response carries, whatever it is.
func setFixedHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	// Revalidate on every load, so that a page reloaded after make wasm
	// never runs a stale main.wasm. Unchanged files still cost only a 304.
	h.Set("Cache-Control", "no-cache")
}

// fileName returns the name in the site of the file a request path asks
// for: a directory's (ending in /) is its index.html. ok is false for a path
// the file server must answer, one ending in /index.html, which it
// redirects to the directory, or one that names no file.
func fileName(urlPath string) (name string, ok bool) {
	if strings.HasSuffix(urlPath, "/index.html") {
		return "", false
	}
	// Cleaning a rooted path removes every "..", so no name leaves the site.
	name = strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if strings.HasSuffix(urlPath, "/") {
		name = path.Join(name, "index.html")
	}
	return name, fs.ValidPath(name)
}

// serveFile serves name if it is a regular file of the site, from the
// sibling in the best coding the request accepts. It returns false, having
// written nothing, if name is not a regular file.
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string) bool {
	original, originalInfo, ok := openRegular(h.site, name)
	if !ok {
		return false
	}
	defer original.Close()

	header := w.Header()
	chosen, hasSibling := h.chooseCoding(r, name, originalInfo)
	if hasSibling {
		// Any cache between here and the browser must keep one response
		// per coding, even when this one is the plain file.
		header.Add("Vary", "Accept-Encoding")
	}
	var content fs.File = original
	info, servedName, etagSuffix := originalInfo, name, ""
	if chosen != nil {
		f, fi, ok := openRegular(h.site, name+chosen.ext)
		if ok {
			defer f.Close()
			content, info, servedName, etagSuffix = f, fi, name+chosen.ext, chosen.etagSuffix
		} else {
			chosen = nil // it went between the look and the open
		}
	}

	// The type is always the original's: application/wasm for main.wasm,
	// whichever bytes carry it.
	if ct := typeByExtension(name); ct != "" {
		header.Set("Content-Type", ct)
	} else if chosen != nil {
		// ServeContent would sniff the compressed bytes; sniff the original.
		header.Set("Content-Type", sniff(original))
	}

	body, err := readSeeker(content)
	if err != nil {
		http.Error(w, "500 Internal Server Error", http.StatusInternalServerError)
		return true
	}
	hash, err := h.entityTagOf(servedName, info, body)
	if err != nil {
		http.Error(w, "500 Internal Server Error", http.StatusInternalServerError)
		return true
	}
	// ServeContent answers If-None-Match (and If-Range) from this header.
	header.Set("ETag", `"`+hash+etagSuffix+`"`)
	if chosen != nil {
		header.Set("Content-Encoding", chosen.token)
		// ServeContent leaves Content-Length unset once Content-Encoding is,
		// in case the writer compresses; these bytes go out as they are.
		header.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		// What the body decodes to, which no standard header says: the
		// page shows main.wasm's download as bytes of this total, since
		// a reader of the body sees the decoded bytes.
		header.Set(DecodedLengthHeader, strconv.FormatInt(originalInfo.Size(), 10))
	}
	http.ServeContent(w, r, name, info.ModTime(), body)
	return true
}

// chooseCoding returns the coding to serve name in, nil for none: of the
// codings with an up-to-date sibling, the one the request weights highest,
// brotli on a tie. hasSibling reports whether name has a sibling at all,
// stale or not wanted, which makes its responses vary with Accept-Encoding.
func (h *handler) chooseCoding(r *http.Request, name string, original fs.FileInfo) (chosen *coding, hasSibling bool) {
	accept := parseAcceptEncoding(r.Header.Values("Accept-Encoding"))
	best := 0
	for i, c := range codings {
		sibling, err := fs.Stat(h.site, name+c.ext)
		if err != nil || !sibling.Mode().IsRegular() {
			continue
		}
		hasSibling = true
		if w := accept.weight(c.token); w > best && upToDate(original, sibling) {
			chosen, best = &codings[i], w
		}
	}
	return chosen, hasSibling
}

// openRegular opens name in site if it is a regular file.
func openRegular(site fs.FS, name string) (fs.File, fs.FileInfo, bool) {
	f, err := site.Open(name)
	if err != nil {
		return nil, nil, false
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, info, true
}

// typeByExtension returns the content type of name by its extension, or ""
// if it has no known one.
func typeByExtension(name string) string {
	ext := path.Ext(name)
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	return mime.TypeByExtension(ext)
}

// sniff returns the content type of f's first bytes, as ServeContent would
// have found it.
func sniff(f io.Reader) string {
	var buf [512]byte
	n, _ := io.ReadFull(f, buf[:])
	return http.DetectContentType(buf[:n])
}

// readSeeker returns f as ServeContent needs it. Every os file is one;
// another file system's file that is not is read into memory.
func readSeeker(f fs.File) (io.ReadSeeker, error) {
	if rs, ok := f.(io.ReadSeeker); ok {
		return rs, nil
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// entityTagOf returns the first 16 hex digits of the SHA-256 of body, the
// content of name as info describes it, and leaves body at its start.
// Hashing main.wasm takes milliseconds that every reload would pay, so
// hashes are kept by name for as long as the size and modification time stay
// the same; a file without a modification time is hashed every time, since
// nothing would tell its versions apart.
func (h *handler) entityTagOf(name string, info fs.FileInfo, body io.ReadSeeker) (string, error) {
	h.mu.Lock()
	tag, ok := h.tags[name]
	h.mu.Unlock()
	if ok && tag.size == info.Size() && tag.modTime.Equal(info.ModTime()) {
		return tag.hash, nil
	}

	// Hash outside the lock, so that requests for other files do not wait
	// for main.wasm's; two first requests for one file may both hash it.
	sum := sha256.New()
	n, err := io.Copy(sum, body)
	if err != nil {
		return "", err
	}
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	hash := hex.EncodeToString(sum.Sum(nil))[:16]
	// A file rewritten in place while it was hashed is not remembered.
	if n == info.Size() && !info.ModTime().IsZero() {
		h.mu.Lock()
		h.tags[name] = entityTag{size: info.Size(), modTime: info.ModTime(), hash: hash}
		h.mu.Unlock()
	}
	return hash, nil
}

// headerKeeper restores the fixed headers when the response is written:
// http.ServeContent strips Cache-Control from the errors it writes (a 404 or
// a 416), and a response without it is one a browser may cache.
type headerKeeper struct {
	http.ResponseWriter
	wroteHeader bool
}

func (k *headerKeeper) WriteHeader(code int) {
	if !k.wroteHeader && code >= http.StatusOK { // 1xx responses come before the real one
		k.wroteHeader = true
		setFixedHeaders(k.Header())
	}
	k.ResponseWriter.WriteHeader(code)
}

func (k *headerKeeper) Write(b []byte) (int, error) {
	if !k.wroteHeader {
		k.WriteHeader(http.StatusOK)
	}
	return k.ResponseWriter.Write(b)
}

// ReadFrom lets ServeContent's copy reach the connection's own ReadFrom,
// which sends a file with sendfile(2) instead of through a buffer.
func (k *headerKeeper) ReadFrom(r io.Reader) (int64, error) {
	if !k.wroteHeader {
		k.WriteHeader(http.StatusOK)
	}
	return io.Copy(k.ResponseWriter, r)
}

// Unwrap gives http.ResponseController the connection's writer.
func (k *headerKeeper) Unwrap() http.ResponseWriter { return k.ResponseWriter }
