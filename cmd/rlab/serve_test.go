package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wantPolicy is the Content-Security-Policy the page is written for, spelled
// out here rather than taken from the constant so that a change to it has to
// be made twice, on purpose.
const wantPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// fakeWasm is the smallest valid WebAssembly module: magic number and version.
var fakeWasm = []byte("\x00asm\x01\x00\x00\x00")

func TestSiteHandlerServesWasmAsApplicationWasm(t *testing.T) {
	site := writeSite(t, map[string][]byte{"main.wasm": fakeWasm})

	res := get(t, siteHandler(site), "/main.wasm")

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"),
		"instantiateStreaming rejects any other type")
	assertSecurityHeaders(t, res.Header)
	assert.Equal(t, fakeWasm, readBody(t, res))
}

func TestSiteHandlerServesIndexWithSecurityHeaders(t *testing.T) {
	site := writeSite(t, map[string][]byte{"index.html": []byte(`<p id="status">loading…</p>`)})

	res := get(t, siteHandler(site), "/")

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	assertSecurityHeaders(t, res.Header)
	assert.Contains(t, string(readBody(t, res)), `id="status"`)
}

func TestSiteHandlerKeepsSecurityHeadersOnErrors(t *testing.T) {
	site := writeSite(t, map[string][]byte{"index.html": nil})

	res := get(t, siteHandler(site), "/missing.js")

	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	assert.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"),
		"an error page is not JavaScript, whatever the path says")
	assertSecurityHeaders(t, res.Header)
}

func TestSiteHandlerRejectsWrites(t *testing.T) {
	site := writeSite(t, map[string][]byte{"index.html": nil})

	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		rec := httptest.NewRecorder()
		siteHandler(site).ServeHTTP(rec, httptest.NewRequest(method, "/index.html", nil))

		assert.Equal(t, http.StatusMethodNotAllowed, rec.Code, method)
		assert.Equal(t, "GET, HEAD", rec.Header().Get("Allow"), method)
	}
}

// TestSiteHandlerServesRealPage serves the real page with a real main.wasm and
// fetches everything index.html and app.js load, as a browser would.
func TestSiteHandlerServesRealPage(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"index.html", "app.js", "style.css"} {
		copyFile(t, filepath.Join(repoSite, name), filepath.Join(dir, name))
	}
	copyFile(t, filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
	goCmd(t, append(os.Environ(), "GOOS=js", "GOARCH=wasm"),
		"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "main.wasm"), "../../wasm")
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	handler := siteHandler(root.FS())

	page := get(t, handler, "/")
	require.Equal(t, http.StatusOK, page.StatusCode)
	assertSecurityHeaders(t, page.Header)
	html := string(readBody(t, page))

	wantTypes := map[string]string{
		"/style.css":    "text/css; charset=utf-8",
		"/wasm_exec.js": "text/javascript; charset=utf-8",
		"/app.js":       "text/javascript; charset=utf-8",
		"/main.wasm":    "application/wasm",
	}
	for _, ref := range localRefs(html) {
		assert.Contains(t, wantTypes, "/"+ref, "index.html loads %s; add it to this test", ref)
	}
	for path, wantType := range wantTypes {
		res := get(t, handler, path)
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Equal(t, wantType, res.Header.Get("Content-Type"), path)
		assertSecurityHeaders(t, res.Header)
		body := readBody(t, res)
		if path == "/main.wasm" {
			assert.True(t, bytes.HasPrefix(body, fakeWasm[:4]), "main.wasm starts with the wasm magic number")
			t.Logf("main.wasm: %d bytes", len(body))
		}
	}
	app, err := os.ReadFile(filepath.Join(dir, "app.js"))
	require.NoError(t, err)
	assert.Contains(t, string(app), `fetch("main.wasm")`, "app.js loads main.wasm relative to the page")
}

// TestPageHasNoInlineCode keeps index.html loadable under the policy, which
// blocks inline scripts, inline styles and event-handler attributes.
func TestPageHasNoInlineCode(t *testing.T) {
	html := strings.ToLower(readRepoSite(t, "index.html"))

	scripts := regexp.MustCompile(`<script([^>]*)>([^<]*)</script>`).FindAllStringSubmatch(html, -1)
	assert.Len(t, scripts, strings.Count(html, "<script"), "every script element is closed and holds no markup")
	for _, m := range scripts {
		assert.Contains(t, m[1], " src=", "script without src: <script%s>", m[1])
		assert.Empty(t, strings.TrimSpace(m[2]), "inline script code: %s", m[2])
	}
	assert.NotContains(t, html, "<style", "inline style element")
	assert.NotRegexp(t, `\sstyle\s*=`, html, "inline style attribute")
	assert.NotRegexp(t, `\son[a-z]+\s*=`, html, "event-handler attribute")
	assert.NotContains(t, html, "javascript:", "javascript: URL")
}

// TestPagePolicyMatchesServer keeps the <meta> policy of index.html, which
// static hosts rely on, equal to the header rlab serve sends, minus
// frame-ancestors, which is only honoured as a header.
func TestPagePolicyMatchesServer(t *testing.T) {
	html := readRepoSite(t, "index.html")
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(html)
	require.NotNil(t, m, "index.html carries its policy in a <meta> tag")

	assert.Equal(t, strings.TrimSuffix(wantPolicy, "; frame-ancestors 'none'"), m[1])
	assert.Equal(t, wantPolicy, contentSecurityPolicy)
}

func TestPageStatusIsAccessible(t *testing.T) {
	html := readRepoSite(t, "index.html")

	assert.Contains(t, html, `<html lang="en">`)
	assert.Contains(t, html, "<title>Reconcile Lab</title>")
	assert.Contains(t, html, `<p id="status" role="status" aria-live="polite">loading…</p>`,
		"the page says it is loading before any script runs, and screen readers hear the change")
}

// TestServeCommandServesOverTCP runs "rlab serve" in-process on a free port,
// fetches main.wasm over a real connection and stops it by cancelling.
func TestServeCommandServesOverTCP(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.wasm"), fakeWasm, 0o644))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stdoutR, stdoutW := io.Pipe()
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr=127.0.0.1:0", "--dir=" + dir}, stdoutW, &stderr)
		stdoutW.Close()
	}()

	url := readServingLine(t, stdoutR, displayDir(dir))
	res, err := http.Get(url + "/main.wasm")
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
	assert.Equal(t, fakeWasm, readBody(t, res))

	cancel()
	select {
	case status := <-done:
		assert.Equal(t, 0, status, "a cancelled serve is a clean exit; stderr:\n%s", stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop within 10s of cancellation")
	}
}

func TestPageURL(t *testing.T) {
	tests := []struct {
		listen         string
		wantPrefix     string
		wantEverywhere bool
	}{
		{"127.0.0.1:0", "http://127.0.0.1:", false},
		{"[::1]:0", "http://[::1]:", false},
		{":0", "http://localhost:", true},
	}
	for _, tt := range tests {
		t.Run(tt.listen, func(t *testing.T) {
			ln, err := (&net.ListenConfig{}).Listen(t.Context(), "tcp", tt.listen)
			if err != nil {
				t.Skipf("cannot listen on %s here: %v", tt.listen, err)
			}
			defer ln.Close()

			url, everywhere := pageURL(ln.Addr())

			assert.True(t, strings.HasPrefix(url, tt.wantPrefix), "%s does not start with %s", url, tt.wantPrefix)
			assert.Equal(t, tt.wantEverywhere, everywhere)
		})
	}
}

func TestDisplayDir(t *testing.T) {
	for dir, want := range map[string]string{
		"site":       "site/",
		"site/":      "site/",
		"./site//":   "site/",
		"/srv/page/": "/srv/page/",
		"/":          "/",
	} {
		assert.Equal(t, want, displayDir(dir), dir)
	}
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
// attributes, skipping data: URLs.
func localRefs(html string) []string {
	var refs []string
	for _, m := range regexp.MustCompile(`\s(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(m[1], "data:") {
			refs = append(refs, m[1])
		}
	}
	return refs
}

// readServingLine reads serve's first line of output and returns the URL it
// announces, checking the line's wording.
func readServingLine(t *testing.T, r io.Reader, dir string) string {
	t.Helper()
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(r)
		line, _ := br.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, br) // keep serve from blocking on later output
	}()
	select {
	case line := <-lines:
		prefix := "serving " + dir + " on "
		require.True(t, strings.HasPrefix(line, prefix), "want %q..., got %q", prefix, line)
		return strings.TrimSpace(strings.TrimPrefix(line, prefix))
	case <-time.After(10 * time.Second):
		t.Fatal("serve printed nothing within 10s")
		return ""
	}
}

func assertSecurityHeaders(t *testing.T, h http.Header) {
	t.Helper()
	assert.Equal(t, wantPolicy, h.Get("Content-Security-Policy"))
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
}

// writeSite writes files into a temporary directory and returns it as the
// confined file system serve uses.
func writeSite(t *testing.T, files map[string][]byte) fs.FS {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), content, 0o644))
	}
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	t.Cleanup(func() { root.Close() })
	return root.FS()
}

func get(t *testing.T, h http.Handler, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
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

func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(goCmd(t, nil, "env", name))
}

// goCmd runs the go command (go test puts its own toolchain first on PATH)
// with args in env (nil: this process's) and returns its standard output.
func goCmd(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "go %s\n%s", strings.Join(args, " "), &stderr)
	return stdout.String()
}

// lockedBuffer is a bytes.Buffer that a server goroutine may write while the
// test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
