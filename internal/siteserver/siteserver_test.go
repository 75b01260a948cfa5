package siteserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/gotool"

	"github.com/reconcilelab/rlab/internal/siteserver"
	"github.com/reconcilelab/rlab/internal/wasmbuild"
)

// wantPolicy is the Content-Security-Policy the page is written for, spelled
// out here rather than taken from the constant so that a change to it has to
// be made twice, on purpose.
const wantPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// fakeWasm is the smallest valid WebAssembly module: magic number and version.
var fakeWasm = []byte("\x00asm\x01\x00\x00\x00")

func TestContentSecurityPolicyIsThePagesPolicy(t *testing.T) {
	assert.Equal(t, wantPolicy, siteserver.ContentSecurityPolicy)
}

func TestHandlerServesWasmAsApplicationWasm(t *testing.T) {
	h := serveDir(t, writeSite(t, map[string][]byte{"main.wasm": fakeWasm}))

	res := get(t, h, "/main.wasm")

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"),
		"instantiateStreaming rejects any other type")
	assertFixedHeaders(t, res.Header)
	assert.Equal(t, fakeWasm, readBody(t, res))
}

func TestHandlerServesIndexWithSecurityHeaders(t *testing.T) {
	h := serveDir(t, writeSite(t, map[string][]byte{"index.html": []byte(`<p id="status">loading…</p>`)}))

	res := get(t, h, "/")

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	assertFixedHeaders(t, res.Header)
	assert.Contains(t, string(readBody(t, res)), `id="status"`)
}

func TestHandlerContentTypes(t *testing.T) {
	tests := map[string]string{
		"page.html":            "text/html; charset=utf-8",
		"app.js":               "text/javascript; charset=utf-8",
		"style.css":            "text/css; charset=utf-8",
		"main.wasm":            "application/wasm",
		"data.json":            "application/json",
		"icon.svg":             "image/svg+xml",
		"icon.png":             "image/png",
		"manifest.webmanifest": "application/manifest+json",
		"lesson.txtar":         "text/plain; charset=utf-8",
	}
	files := map[string][]byte{}
	for name := range tests {
		files[name] = []byte("x")
	}
	h := serveDir(t, writeSite(t, files))

	for name, want := range tests {
		res := get(t, h, "/"+name)
		assert.Equal(t, http.StatusOK, res.StatusCode, name)
		assert.Equal(t, want, res.Header.Get("Content-Type"), name)
	}
}

func TestHandlerKeepsFixedHeadersOnErrors(t *testing.T) {
	h := serveDir(t, writeSite(t, map[string][]byte{"index.html": nil, "app.js": []byte("x")}))

	t.Run("not found", func(t *testing.T) {
		res := get(t, h, "/missing.js")

		assert.Equal(t, http.StatusNotFound, res.StatusCode)
		assert.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"),
			"an error page is not JavaScript, whatever the path says")
		assertFixedHeaders(t, res.Header)
	})
	t.Run("range not satisfiable", func(t *testing.T) {
		// ServeContent strips Cache-Control from the errors it writes itself.
		res := do(t, h, http.MethodGet, "/app.js", http.Header{"Range": {"bytes=100-"}})

		assert.Equal(t, http.StatusRequestedRangeNotSatisfiable, res.StatusCode)
		assertFixedHeaders(t, res.Header)
	})
}

func TestHandlerRejectsWrites(t *testing.T) {
	h := serveDir(t, writeSite(t, map[string][]byte{"index.html": nil}))

	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		res := do(t, h, method, "/index.html", nil)

		assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, method)
		assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"), method)
		assertFixedHeaders(t, res.Header)
	}
}

func TestHandlerKeepsTheFileServersRedirects(t *testing.T) {
	dir := writeSite(t, map[string][]byte{"index.html": []byte("home"), "sub/index.html": []byte("sub")})
	h := serveDir(t, dir)

	tests := []struct{ path, wantLocation string }{
		{"/index.html", "./"},
		{"/sub", "sub/"},
		{"/sub/index.html", "./"},
	}
	for _, tt := range tests {
		res := get(t, h, tt.path)
		assert.Equal(t, http.StatusMovedPermanently, res.StatusCode, tt.path)
		assert.Equal(t, tt.wantLocation, res.Header.Get("Location"), tt.path)
		assertFixedHeaders(t, res.Header)
	}
	assert.Equal(t, "sub", string(readBody(t, get(t, h, "/sub/"))))
}

// TestHandlerNeverLeavesTheSite asks for a file beside the site directory
// every way a path or a link could reach it, a compressed sibling included.
func TestHandlerNeverLeavesTheSite(t *testing.T) {
	parent := t.TempDir()
	secret := []byte("the secret")
	require.NoError(t, os.WriteFile(filepath.Join(parent, "secret.txt"), secret, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(parent, "secret.br"), secret, 0o644))
	site := filepath.Join(parent, "site")
	require.NoError(t, os.Mkdir(site, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(site, "index.html"), []byte("page"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(parent, "secret.txt"), filepath.Join(site, "link.txt")))
	require.NoError(t, os.Symlink(parent, filepath.Join(site, "up")))
	require.NoError(t, os.Symlink(filepath.Join(parent, "secret.br"), filepath.Join(site, "index.html.br")))
	h := serveDir(t, site)

	for _, target := range []string{
		"/../secret.txt",
		"/..%2fsecret.txt",
		"/%2e%2e/secret.txt",
		"/sub/../../secret.txt",
		"/link.txt",
		"/up/secret.txt",
	} {
		res := get(t, h, target)
		assert.NotEqual(t, http.StatusOK, res.StatusCode, target)
		assert.NotContains(t, string(readBody(t, res)), string(secret), target)
		assertFixedHeaders(t, res.Header)
	}

	res := do(t, h, http.MethodGet, "/", http.Header{"Accept-Encoding": {"br"}})
	assert.Empty(t, res.Header.Get("Content-Encoding"), "a link out of the site is no sibling")
	assert.Equal(t, "page", string(readBody(t, res)))
}

// TestHandlerServesRealPage serves the real page with a real main.wasm and
// fetches everything index.html loads, and what its worker loads, as a
// browser would.
func TestHandlerServesRealPage(t *testing.T) {
	dir := t.TempDir()
	sources, err := os.ReadDir(repoSite)
	require.NoError(t, err)
	var scripts []string
	for _, e := range sources {
		name := e.Name()
		switch {
		case !e.Type().IsRegular(), name == "main.wasm", name == "wasm_exec.js", name == siteserver.StartScript, name == siteserver.PageScript,
			strings.HasSuffix(name, ".gz"), strings.HasSuffix(name, ".br"):
			continue // make wasm's outputs, built below as it builds them
		case strings.HasSuffix(name, ".js"):
			scripts = append(scripts, name)
		}
		copyFile(t, filepath.Join(repoSite, name), filepath.Join(dir, name))
	}
	copyFile(t, filepath.Join(gotool.Env(t, "GOROOT"), "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
	_, err = siteserver.Bundle(dir)
	require.NoError(t, err)
	gotool.Run(t, append(os.Environ(), "GOOS=js", "GOARCH=wasm"),
		"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "main.wasm"), "../../wasm")
	lessonsJSON, err := wasmbuild.Lessons()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, wasmbuild.LessonsFile), lessonsJSON, 0o644))
	h := serveDir(t, dir)

	page := get(t, h, "/")
	require.Equal(t, http.StatusOK, page.StatusCode)
	assertFixedHeaders(t, page.Header)
	html := string(readBody(t, page))

	wantTypes := map[string]string{
		".css":  "text/css; charset=utf-8",
		".js":   "text/javascript; charset=utf-8",
		".json": "application/json",
		".wasm": "application/wasm",
	}
	// The simulator loads main.wasm, wasm_exec.js and lessons.json from
	// its script, not from index.html.
	for _, ref := range append(localRefs(html), "main.wasm", "wasm_exec.js", wasmbuild.LessonsFile) {
		wantType, ok := wantTypes[filepath.Ext(ref)]
		if !assert.True(t, ok, "index.html loads %s; add its type to this test", ref) {
			continue
		}
		res := get(t, h, "/"+ref)
		assert.Equal(t, http.StatusOK, res.StatusCode, ref)
		assert.Equal(t, wantType, res.Header.Get("Content-Type"), ref)
		assertFixedHeaders(t, res.Header)
		body := readBody(t, res)
		if ref == "main.wasm" {
			assert.True(t, bytes.HasPrefix(body, fakeWasm[:4]), "main.wasm starts with the wasm magic number")
			t.Logf("main.wasm: %d bytes", len(body))
		}
	}
	// The service worker caches these at install for offline use; a file
	// renamed without updating its list would silently not be cached.
	sw := readRepoSite(t, "sw.js")
	_, list, ok := strings.Cut(sw, "const shell = [")
	require.True(t, ok, "sw.js lists its shell in const shell = [...]")
	list, _, _ = strings.Cut(list, "];")
	for _, line := range strings.Split(list, "\n") {
		ref := strings.Trim(strings.TrimSpace(line), `",`)
		if ref == "" || strings.HasPrefix(ref, "//") {
			continue
		}
		res := get(t, h, "/"+strings.TrimPrefix(ref, "./"))
		assert.Equal(t, http.StatusOK, res.StatusCode, "sw.js caches %s, which the built site does not serve", ref)
	}

	loadsWasm := false
	for _, name := range scripts {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		loadsWasm = loadsWasm || strings.Contains(string(b), `fetch("main.wasm")`)
	}
	assert.True(t, loadsWasm, "a script of the page loads main.wasm relative to the page")
}

// TestPageHasNoInlineCode keeps index.html loadable under the policy, which
// blocks inline scripts, inline styles and event-handler attributes. A data
// block, a script element of type application/json, is not code: the
// browser never runs it, so the policy allows it (the page carries its
// first world in one), but it must hold JSON and nothing else.
func TestPageHasNoInlineCode(t *testing.T) {
	page := readRepoSite(t, "index.html")
	html := strings.ToLower(page)

	scripts := regexp.MustCompile(`<script([^>]*)>([^<]*)</script>`).FindAllStringSubmatchIndex(html, -1)
	assert.Len(t, scripts, strings.Count(html, "<script"), "every script element is closed and holds no markup")
	for _, m := range scripts {
		attrs, body := html[m[2]:m[3]], page[m[4]:m[5]]
		if strings.Contains(attrs, ` type="application/json"`) {
			assert.NotContains(t, attrs, " src=", "a data block with a src: <script%s>", attrs)
			assert.True(t, json.Valid([]byte(body)), "the data block <script%s> does not hold JSON", attrs)
			continue
		}
		assert.Contains(t, attrs, " src=", "script without src: <script%s>", attrs)
		assert.Empty(t, strings.TrimSpace(body), "inline script code: %s", body)
	}
	assert.NotContains(t, html, "<style", "inline style element")
	assert.NotRegexp(t, `\sstyle\s*=`, html, "inline style attribute")
	assert.NotRegexp(t, `\son[a-z]+\s*=`, html, "event-handler attribute")
	assert.NotContains(t, html, "javascript:", "javascript: URL")
}

func TestPageStatusIsAccessible(t *testing.T) {
	html := readRepoSite(t, "index.html")

	assert.Contains(t, html, `<html lang="en">`)
	assert.Contains(t, html, "<title>Reconcile Lab</title>")
	assert.Contains(t, html, `<p id="status" role="status" aria-live="polite" data-i18n="controls.simulatorLoading">loading…</p>`,
		"the page says it is loading before any script runs, in its language once the first script has its words, and screen readers hear the change")
}

// repoSite is the page's source directory, relative to this package.
var repoSite = filepath.Join("..", "..", "site")

func readRepoSite(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoSite, name))
	require.NoError(t, err)
	return string(b)
}

// localRefs returns the same-site files html loads through src= and href=
// attributes, skipping data: URLs and links within the page (#id).
func localRefs(html string) []string {
	var refs []string
	for _, m := range regexp.MustCompile(`\s(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(m[1], "data:") && !strings.HasPrefix(m[1], "#") {
			refs = append(refs, m[1])
		}
	}
	return refs
}

// assertFixedHeaders checks the headers every response must carry.
func assertFixedHeaders(t *testing.T, h http.Header) {
	t.Helper()
	assert.Equal(t, wantPolicy, h.Get("Content-Security-Policy"))
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	assert.Equal(t, "no-cache", h.Get("Cache-Control"))
}

// writeSite writes files, by slash-separated name, into a new temporary
// directory and returns it.
func writeSite(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, content, 0o644))
	}
	return dir
}

// serveDir returns the handler for dir confined as rlab serve confines it.
func serveDir(t *testing.T, dir string) http.Handler {
	t.Helper()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return siteserver.Handler(root.FS())
}

func get(t *testing.T, h http.Handler, target string) *http.Response {
	t.Helper()
	return do(t, h, http.MethodGet, target, nil)
}

func do(t *testing.T, h http.Handler, method, target string, header http.Header) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for name, values := range header {
		req.Header[name] = values
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func readBody(t *testing.T, res *http.Response) []byte {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, b, 0o644))
}
