package siteserver_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

// wasmBody is a main.wasm that compresses well: the magic number and
// version, then repetitive text.
var wasmBody = append(append([]byte{}, fakeWasm...),
	bytes.Repeat([]byte("reconcile the replicas; "), 2000)...)

// precompressedSite writes files into a new directory, precompresses it and
// returns it.
func precompressedSite(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := writeSite(t, files)
	require.NoError(t, siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(siteserver.Compressed) {}))
	return dir
}

func TestHandlerServesTheAcceptedCoding(t *testing.T) {
	h := serveDir(t, precompressedSite(t, map[string][]byte{"main.wasm": wasmBody}))

	tests := []struct {
		name           string
		acceptEncoding []string // header lines; none: no header
		wantEncoding   string   // "" for the file as it is
	}{
		{"no header", nil, ""},
		{"a browser's", []string{"gzip, deflate, br, zstd"}, "br"},
		{"brotli only", []string{"br"}, "br"},
		{"gzip only", []string{"gzip"}, "gzip"},
		{"neither", []string{"deflate, zstd"}, ""},
		{"identity", []string{"identity"}, ""},
		{"empty", []string{""}, ""},
		{"both refused", []string{"br;q=0, gzip;q=0"}, ""},
		{"brotli refused", []string{"br;q=0, gzip"}, "gzip"},
		{"brotli refused, spaced", []string{"gzip , br ; q=0"}, "gzip"},
		{"gzip weighted higher", []string{"gzip;q=1, br;q=0.5"}, "gzip"},
		{"brotli weighted higher", []string{"gzip;q=0.5, br;q=0.8"}, "br"},
		{"equal weights prefer brotli", []string{"gzip;q=0.5, br;q=0.500"}, "br"},
		{"smallest weight still accepts", []string{"br;q=0.001"}, "br"},
		{"capitals", []string{"GZIP, BR;Q=1.0"}, "br"},
		{"x-gzip is gzip", []string{"x-gzip"}, "gzip"},
		{"star", []string{"*"}, "br"},
		{"star refused", []string{"*;q=0"}, ""},
		{"star but not brotli", []string{"*, br;q=0"}, "gzip"},
		{"named weight beats star", []string{"br;q=0.2, *;q=0.9"}, "gzip"},
		{"malformed weight refuses", []string{"br;q=high, gzip"}, "gzip"},
		{"weight above 1 refuses", []string{"br;q=1.5"}, ""},
		{"too many decimals refuses", []string{"br;q=0.0001"}, ""},
		{"several header lines", []string{"br;q=0", "gzip"}, "gzip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var header http.Header
			if tt.acceptEncoding != nil {
				header = http.Header{"Accept-Encoding": tt.acceptEncoding}
			}

			res := do(t, h, http.MethodGet, "/main.wasm", header)

			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, tt.wantEncoding, res.Header.Get("Content-Encoding"))
			assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"),
				"the type is the original's, whatever the coding")
			assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
			assertFixedHeaders(t, res.Header)
			body := readBody(t, res)
			assert.Equal(t, strconv.Itoa(len(body)), res.Header.Get("Content-Length"))
			assert.Equal(t, wasmBody, decode(t, tt.wantEncoding, body))
			if tt.wantEncoding == "" {
				assert.Empty(t, res.Header.Get(siteserver.DecodedLengthHeader),
					"Content-Length already says it")
			} else {
				assert.Equal(t, strconv.Itoa(len(wasmBody)), res.Header.Get(siteserver.DecodedLengthHeader))
			}
		})
	}
}

// TestHandlerSaysWhatACompressedBodyDecodesTo pins what the page's download
// progress counts against: a reader of a compressed response sees decoded
// bytes, and Content-Length counts compressed ones.
func TestHandlerSaysWhatACompressedBodyDecodesTo(t *testing.T) {
	h := serveDir(t, precompressedSite(t, map[string][]byte{"main.wasm": wasmBody}))

	for _, coding := range []string{"br", "gzip"} {
		res := do(t, h, http.MethodGet, "/main.wasm", http.Header{"Accept-Encoding": {coding}})
		body := readBody(t, res)

		require.Equal(t, coding, res.Header.Get("Content-Encoding"))
		assert.Less(t, len(body), len(wasmBody), "%s: the test's main.wasm compresses", coding)
		assert.Equal(t, strconv.Itoa(len(body)), res.Header.Get("Content-Length"), coding)
		assert.Equal(t, strconv.Itoa(len(decode(t, coding, body))), res.Header.Get(siteserver.DecodedLengthHeader), coding)
	}
}

func TestHandlerFallsBackToTheSiblingsThatExist(t *testing.T) {
	dir := precompressedSite(t, map[string][]byte{"main.wasm": wasmBody, "app.js": []byte("x")})
	require.NoError(t, os.Remove(filepath.Join(dir, "main.wasm.br")))
	for _, ext := range []string{".br", ".gz"} {
		require.NoError(t, os.Remove(filepath.Join(dir, "app.js"+ext)))
	}
	h := serveDir(t, dir)

	tests := []struct {
		path, acceptEncoding, wantEncoding, wantVary string
	}{
		{"/main.wasm", "br, gzip", "gzip", "Accept-Encoding"},
		{"/main.wasm", "br", "", "Accept-Encoding"},
		{"/app.js", "br, gzip", "", ""},
	}
	for _, tt := range tests {
		res := do(t, h, http.MethodGet, tt.path, http.Header{"Accept-Encoding": {tt.acceptEncoding}})

		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, tt.wantEncoding, res.Header.Get("Content-Encoding"), "%s with %s", tt.path, tt.acceptEncoding)
		assert.Equal(t, tt.wantVary, res.Header.Get("Vary"), "%s with %s", tt.path, tt.acceptEncoding)
	}
}

// TestHandlerIgnoresStaleSiblings rebuilds main.wasm without recompressing
// it, as a make wasm interrupted before rlab compress would leave it.
func TestHandlerIgnoresStaleSiblings(t *testing.T) {
	dir := precompressedSite(t, map[string][]byte{"main.wasm": wasmBody})
	rebuilt := append(bytes.Clone(fakeWasm), "the rebuilt engine"...)
	wasmPath := filepath.Join(dir, "main.wasm")
	require.NoError(t, os.WriteFile(wasmPath, rebuilt, 0o644))
	siblingTime := modTime(t, wasmPath+".br")
	require.NoError(t, os.Chtimes(wasmPath, time.Time{}, siblingTime.Add(time.Second)))
	h := serveDir(t, dir)

	res := do(t, h, http.MethodGet, "/main.wasm", http.Header{"Accept-Encoding": {"br, gzip"}})

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Empty(t, res.Header.Get("Content-Encoding"), "both siblings are older than main.wasm")
	assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
	assert.Equal(t, rebuilt, readBody(t, res))
}

func TestHandlerServesIndexPrecompressed(t *testing.T) {
	index := []byte(strings.Repeat("<p>Reconcile Lab</p>\n", 100))
	h := serveDir(t, precompressedSite(t, map[string][]byte{"index.html": index}))

	res := do(t, h, http.MethodGet, "/", http.Header{"Accept-Encoding": {"gzip, br"}})

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "br", res.Header.Get("Content-Encoding"))
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	assert.Equal(t, index, decode(t, "br", readBody(t, res)))
}

func TestHandlerServesASiblingAsItIs(t *testing.T) {
	dir := precompressedSite(t, map[string][]byte{"main.wasm": wasmBody})
	brotlied, err := os.ReadFile(filepath.Join(dir, "main.wasm.br"))
	require.NoError(t, err)
	h := serveDir(t, dir)

	res := do(t, h, http.MethodGet, "/main.wasm.br", http.Header{"Accept-Encoding": {"br"}})

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Empty(t, res.Header.Get("Content-Encoding"))
	assert.Equal(t, brotlied, readBody(t, res))
}

// TestHandlerSniffsAnUnknownTypeFromTheOriginal checks a compressed file of
// no known type: its type must come from its own bytes, not the sibling's.
func TestHandlerSniffsAnUnknownTypeFromTheOriginal(t *testing.T) {
	dir := writeSite(t, map[string][]byte{"notes.unknown": []byte("plain words")})
	gzipped := gzipBytes(t, []byte("plain words"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.unknown.gz"), gzipped, 0o644))
	h := serveDir(t, dir)

	res := do(t, h, http.MethodGet, "/notes.unknown", http.Header{"Accept-Encoding": {"gzip"}})

	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "gzip", res.Header.Get("Content-Encoding"))
	assert.Equal(t, "text/plain; charset=utf-8", res.Header.Get("Content-Type"))
}

func TestHandlerETagsAndRevalidation(t *testing.T) {
	h := serveDir(t, precompressedSite(t, map[string][]byte{"main.wasm": wasmBody}))
	codings := []struct{ acceptEncoding, wantSuffix string }{
		{"", `"`},
		{"gzip", `-gz"`},
		{"br", `-br"`},
	}

	tags := map[string]string{}
	for _, c := range codings {
		res := do(t, h, http.MethodGet, "/main.wasm", http.Header{"Accept-Encoding": {c.acceptEncoding}})
		require.Equal(t, http.StatusOK, res.StatusCode)
		tag := res.Header.Get("ETag")
		assert.Regexp(t, `^"[0-9a-f]{16}(-br|-gz)?"$`, tag, "a strong ETag")
		assert.True(t, strings.HasSuffix(tag, c.wantSuffix), "%s ends in %s", tag, c.wantSuffix)
		assert.Equal(t, "no-cache", res.Header.Get("Cache-Control"), "revalidated on every load")
		tags[c.acceptEncoding] = tag
	}
	assert.Len(t, map[string]bool{tags[""]: true, tags["gzip"]: true, tags["br"]: true}, 3,
		"each coding has its own ETag: %v", tags)

	for _, c := range codings {
		t.Run("revalidate "+c.acceptEncoding, func(t *testing.T) {
			res := do(t, h, http.MethodGet, "/main.wasm", http.Header{
				"Accept-Encoding": {c.acceptEncoding},
				"If-None-Match":   {tags[c.acceptEncoding]},
			})

			assert.Equal(t, http.StatusNotModified, res.StatusCode)
			assert.Equal(t, tags[c.acceptEncoding], res.Header.Get("ETag"))
			assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
			assertFixedHeaders(t, res.Header)
			assert.Empty(t, readBody(t, res))
		})
	}
	t.Run("another coding's tag does not match", func(t *testing.T) {
		res := do(t, h, http.MethodGet, "/main.wasm", http.Header{
			"Accept-Encoding": {"br"},
			"If-None-Match":   {tags["gzip"]},
		})

		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, wasmBody, decode(t, "br", readBody(t, res)))
	})
}

func TestHandlerETagFollowsTheFile(t *testing.T) {
	dir := writeSite(t, map[string][]byte{"app.js": []byte("first")})
	h := serveDir(t, dir)
	first := get(t, h, "/app.js").Header.Get("ETag")
	require.NotEmpty(t, first)
	assert.Equal(t, first, get(t, h, "/app.js").Header.Get("ETag"), "the same file, the same tag")

	appPath := filepath.Join(dir, "app.js")
	before := modTime(t, appPath)
	require.NoError(t, os.WriteFile(appPath, []byte("other"), 0o644))
	require.NoError(t, os.Chtimes(appPath, time.Time{}, before.Add(time.Second)))

	res := do(t, h, http.MethodGet, "/app.js", http.Header{"If-None-Match": {first}})
	assert.Equal(t, http.StatusOK, res.StatusCode, "a changed file no longer matches its old tag")
	assert.NotEqual(t, first, res.Header.Get("ETag"))
	assert.Equal(t, "other", string(readBody(t, res)))
}

func TestHandlerHead(t *testing.T) {
	dir := precompressedSite(t, map[string][]byte{"main.wasm": wasmBody})
	brotlied, err := os.ReadFile(filepath.Join(dir, "main.wasm.br"))
	require.NoError(t, err)
	h := serveDir(t, dir)

	tests := []struct {
		acceptEncoding, wantEncoding string
		wantLength                   int
	}{
		{"", "", len(wasmBody)},
		{"br", "br", len(brotlied)},
	}
	for _, tt := range tests {
		res := do(t, h, http.MethodHead, "/main.wasm", http.Header{"Accept-Encoding": {tt.acceptEncoding}})

		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, tt.wantEncoding, res.Header.Get("Content-Encoding"))
		assert.Equal(t, strconv.Itoa(tt.wantLength), res.Header.Get("Content-Length"))
		assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"))
		assert.NotEmpty(t, res.Header.Get("ETag"))
		assertFixedHeaders(t, res.Header)
		assert.Empty(t, readBody(t, res))
	}
}

// TestHandlerConcurrentRequests gives the race detector the ETag cache to
// watch: many first requests for the same files at once, on a handler whose
// cache is empty.
func TestHandlerConcurrentRequests(t *testing.T) {
	dir := precompressedSite(t, map[string][]byte{"main.wasm": wasmBody, "app.js": wasmBody[8:]})
	requests := []struct{ path, acceptEncoding string }{
		{"/main.wasm", ""}, {"/main.wasm", "gzip"}, {"/main.wasm", "br"},
		{"/app.js", ""}, {"/app.js", "gzip"}, {"/app.js", "br"},
	}
	want := map[string]string{}
	reference := serveDir(t, dir)
	for _, r := range requests {
		res := do(t, reference, http.MethodGet, r.path, http.Header{"Accept-Encoding": {r.acceptEncoding}})
		want[r.path+" "+r.acceptEncoding] = res.Header.Get("ETag")
	}
	h := serveDir(t, dir)

	var wg sync.WaitGroup
	got := make([]map[string]string, 8)
	for i := range got {
		got[i] = map[string]string{}
		wg.Go(func() {
			for _, r := range requests {
				res := do(t, h, http.MethodGet, r.path, http.Header{"Accept-Encoding": {r.acceptEncoding}})
				got[i][r.path+" "+r.acceptEncoding] = res.Header.Get("ETag")
			}
		})
	}
	wg.Wait()

	for _, tags := range got {
		assert.Equal(t, want, tags)
	}
}

func TestPrecompressWritesDecodableSiblingsOnce(t *testing.T) {
	files := map[string][]byte{
		"main.wasm":            wasmBody,
		"app.js":               []byte(strings.Repeat("console.log('step');\n", 50)),
		"style.css":            []byte("body { margin: 0 }"),
		"index.html":           []byte("<!doctype html>"),
		"icon.svg":             []byte("<svg/>"),
		"manifest.webmanifest": []byte(`{"name": "Reconcile Lab"}`),
		"ui/view.js":           []byte("view();"),
		"empty.js":             {},
		// Neither text nor code the page is made of, or already compressed.
		"icon.png":     []byte("\x89PNG"),
		"lesson.txtar": []byte("-- a --"),
		"old.js.gz":    gzipBytes(t, []byte("old")),
	}
	dir := writeSite(t, files)

	var written []siteserver.Compressed
	require.NoError(t, siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(c siteserver.Compressed) { written = append(written, c) }))

	var names []string
	for _, c := range written {
		names = append(names, c.Name)
		original := files[c.Name]
		assert.Equal(t, int64(len(original)), c.Size, c.Name)
		gzipped := readFile(t, filepath.Join(dir, c.Name+".gz"))
		brotlied := readFile(t, filepath.Join(dir, c.Name+".br"))
		assert.Equal(t, int64(len(gzipped)), c.Gzip, c.Name)
		assert.Equal(t, int64(len(brotlied)), c.Brotli, c.Name)
		assert.Equal(t, original, decode(t, "gzip", gzipped), c.Name)
		assert.Equal(t, original, decode(t, "br", brotlied), c.Name)
		originalTime := modTime(t, filepath.Join(dir, c.Name))
		for _, ext := range []string{".gz", ".br"} {
			assert.False(t, modTime(t, filepath.Join(dir, c.Name+ext)).Before(originalTime), "%s%s is up to date", c.Name, ext)
		}
	}
	assert.Equal(t, []string{"app.js", "empty.js", "icon.svg", "index.html", "main.wasm", "manifest.webmanifest", "style.css", "ui/view.js"}, names)
	for _, name := range []string{"icon.png", "lesson.txtar", "old.js.gz"} {
		assert.NoFileExists(t, filepath.Join(dir, name+".gz"))
		assert.NoFileExists(t, filepath.Join(dir, name+".br"))
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasSuffix(e.Name(), ".tmp"), "temporary file %s left behind", e.Name())
	}
	for _, c := range written {
		if c.Name == "main.wasm" {
			assert.Less(t, c.Brotli, c.Gzip, "brotli beats gzip on main.wasm")
		}
	}

	t.Run("a second run writes nothing", func(t *testing.T) {
		var again []string
		require.NoError(t, siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(c siteserver.Compressed) { again = append(again, c.Name) }))
		assert.Empty(t, again)
	})
	t.Run("a changed file is compressed again", func(t *testing.T) {
		appPath := filepath.Join(dir, "app.js")
		require.NoError(t, os.WriteFile(appPath, []byte("console.log('changed');"), 0o644))
		require.NoError(t, os.Chtimes(appPath, time.Time{}, modTime(t, appPath+".br").Add(time.Second)))

		var again []string
		require.NoError(t, siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(c siteserver.Compressed) { again = append(again, c.Name) }))

		assert.Equal(t, []string{"app.js"}, again)
		assert.Equal(t, "console.log('changed');", string(decode(t, "br", readFile(t, appPath+".br"))))
	})
	t.Run("a missing sibling is written again", func(t *testing.T) {
		require.NoError(t, os.Remove(filepath.Join(dir, "style.css.gz")))

		var again []string
		require.NoError(t, siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(c siteserver.Compressed) { again = append(again, c.Name) }))

		assert.Equal(t, []string{"style.css"}, again)
		assert.FileExists(t, filepath.Join(dir, "style.css.gz"))
	})
}

func TestPrecompressStopsWhenCancelled(t *testing.T) {
	dir := writeSite(t, map[string][]byte{"app.js": []byte("x")})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()

	err := siteserver.Precompress(ctx, dir, siteserver.ServedQuality, func(siteserver.Compressed) { t.Error("wrote a file after cancellation") })

	assert.ErrorIs(t, err, context.Canceled)
}

func TestPrecompressReportsAMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no-such-site")

	err := siteserver.Precompress(t.Context(), dir, siteserver.ServedQuality, func(siteserver.Compressed) {})

	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), dir)
}

// decode undoes a content coding ("" for none) as a browser would.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err)
		r = zr
	default:
		t.Fatalf("unknown coding %q", coding)
	}
	b, err := io.ReadAll(r)
	require.NoError(t, err, "decoding %s", coding)
	return b
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

func modTime(t *testing.T, name string) time.Time {
	t.Helper()
	info, err := os.Stat(name)
	require.NoError(t, err)
	return info.ModTime()
}

// TestPrecompressTakesTheQualityItIsGiven holds the served copy to brotli's
// best: at ServedQuality the page is smaller than at TestQuality, which the
// browser suite uses to keep make test quick, and both decode to the page.
func TestPrecompressTakesTheQualityItIsGiven(t *testing.T) {
	page := []byte(strings.Repeat("function step(n) { return world.step(n, 'the controller syncs') }\n", 200) +
		strings.Repeat("const views = [agenda, informers, expectations, queue];\n", 300))
	sizes := map[int]int64{}
	for _, quality := range []int{siteserver.TestQuality, siteserver.ServedQuality} {
		dir := writeSite(t, map[string][]byte{"app.js": page})
		var written []siteserver.Compressed
		require.NoError(t, siteserver.Precompress(t.Context(), dir, quality, func(c siteserver.Compressed) { written = append(written, c) }))
		require.Len(t, written, 1)
		assert.Equal(t, page, decode(t, "br", readFile(t, filepath.Join(dir, "app.js.br"))), "quality %d", quality)
		sizes[quality] = written[0].Brotli
	}
	assert.Less(t, sizes[siteserver.ServedQuality], sizes[siteserver.TestQuality])

	err := siteserver.Precompress(t.Context(), t.TempDir(), 12, func(siteserver.Compressed) {})
	assert.ErrorContains(t, err, "brotli quality 12: it is from 0 to 11")
}
