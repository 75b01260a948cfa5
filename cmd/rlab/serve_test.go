package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

// fakeWasm is the smallest valid WebAssembly module: magic number and version.
var fakeWasm = []byte("\x00asm\x01\x00\x00\x00")

// TestPagePolicyMatchesServer keeps the <meta> policy of index.html, which
// static hosts rely on, equal to the header rlab serve sends, minus
// frame-ancestors, which is only honoured as a header.
func TestPagePolicyMatchesServer(t *testing.T) {
	html := readRepoSite(t, "index.html")
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(html)
	require.NotNil(t, m, "index.html carries its policy in a <meta> tag")

	headerOnly := "; frame-ancestors 'none'"
	require.True(t, strings.HasSuffix(siteserver.ContentSecurityPolicy, headerOnly),
		"the header's policy ends with %q", headerOnly)
	assert.Equal(t, strings.TrimSuffix(siteserver.ContentSecurityPolicy, headerOnly), m[1])
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
	assert.Equal(t, siteserver.ContentSecurityPolicy, res.Header.Get("Content-Security-Policy"),
		"serve serves the page with siteserver's headers")
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

func readBody(t *testing.T, res *http.Response) []byte {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return b
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
