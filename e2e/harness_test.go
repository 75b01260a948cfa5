//go:build !js

package e2e

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reconcilelab/rlab/internal/siteserver"
	"github.com/reconcilelab/rlab/internal/wasmbuild"
)

// This file holds what the whole test binary shares: the page built once
// (main.wasm with the rlabtest ops, the site's files and wasm_exec.js, with
// their precompressed siblings, in tmp/e2e-site), the httptest server that
// serves it with siteserver.Handler, the real server's handler, and one
// Chromium. Each test then opens its own tabs on that browser (page_test.go).

// chromiumNames are the executables looked for on PATH, in this order, when
// RLAB_CHROMIUM does not name one: Debian's package, then the other usual
// names of Chromium and Chrome.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// suite is everything the tests of this binary share. It is built by the
// first test that needs it (so that go test -run for a test that needs no
// browser builds nothing) and torn down by TestMain.
type suite struct {
	root    string // the module root
	dir     string // the built site, tmp/e2e-site
	server  *httptest.Server
	browser context.Context // the browser's context; tabs are children of it
	cancel  func()          // stops the browser and its allocator

	// requested counts the server's requests by path, for the tests of
	// what the page fetches when (export.wasm only on Export).
	requestedMu sync.Mutex
	requested   map[string]int
}

// requests returns how many times the server was asked for path.
func (s *suite) requests(path string) int {
	s.requestedMu.Lock()
	defer s.requestedMu.Unlock()
	return s.requested[path]
}

var (
	sharedOnce  sync.Once
	shared      *suite
	sharedErr   error
	missingExec string // set when no Chromium was found: a reason to skip
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.close()
	}
	os.Exit(code)
}

// getSuite returns the shared suite, building it on first use. Without a
// Chromium the test is skipped, except in CI (CI=true), which must run the
// browser tests rather than pass without them.
func getSuite(tb testing.TB) *suite {
	tb.Helper()
	sharedOnce.Do(func() { shared, sharedErr = newSuite() })
	if missingExec != "" {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("CI=true, and the browser tests need Chromium: %s", missingExec)
		}
		tb.Skipf("skipping the browser tests: %s", missingExec)
	}
	if sharedErr != nil {
		tb.Fatalf("cannot set up the browser tests: %v", sharedErr)
	}
	return shared
}

func newSuite() (*suite, error) {
	execPath, err := findChromium()
	if err != nil {
		return nil, err
	}
	if execPath == "" {
		missingExec = fmt.Sprintf("no Chromium found (looked for %s on PATH, and RLAB_CHROMIUM is not set); "+
			"install it with: sudo apt-get install chromium (Debian, Ubuntu), or set RLAB_CHROMIUM to a Chrome or Chromium executable",
			strings.Join(chromiumNames, ", "))
		return nil, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	// The built site is kept between runs, under tmp/ like the
	// screenshots, so that only what changed is rewritten: precompressing
	// an unchanged main.wasm would cost seconds on every run. Tests compress
	// it at siteserver.TestQuality, under a second; benchmarks, which time
	// what a learner downloads, at ServedQuality, as rlab compress does
	// (about 30 s after each change to the engine). Siblings do not record
	// their quality, so each quality has its own directory.
	quality, dir := siteserver.TestQuality, filepath.Join(root, "tmp", "e2e-site")
	if benchmarking() {
		quality, dir = siteserver.ServedQuality, filepath.Join(root, "tmp", "e2e-site-served")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &suite{root: root, dir: dir}
	if err := buildSite(root, dir, quality); err != nil {
		s.close()
		return nil, err
	}
	site := siteserver.Handler(os.DirFS(dir))
	s.requested = map[string]int{}
	s.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requestedMu.Lock()
		s.requested[r.URL.Path]++
		s.requestedMu.Unlock()
		site.ServeHTTP(w, r)
	}))

	profile, err := os.MkdirTemp("", "rlab-e2e-profile-")
	if err != nil {
		s.close()
		return nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(execPath),
		// Chromium's sandbox cannot run as root, which CI containers are.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(profile),
		// Nothing in these tests may reach the internet, and these are
		// the two features that still tried to once the defaults above
		// turned off the rest.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		// The page follows the browser's language: the tests' browser
		// speaks English, whatever the machine's, so that every test but
		// those of i18n_test.go, which choose another, sees the English
		// page.
		chromedp.Flag("lang", "en-US"),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	s.browser = browserCtx
	s.cancel = func() {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(profile)
	}
	// The first Do starts the browser and binds its life to the context it
	// is given, so it gets the suite's context, with no timeout: a timeout
	// here would kill the browser under every later test.
	if err := chromedp.Do(browserCtx); err != nil {
		s.close()
		return nil, fmt.Errorf("starting %s: %w", execPath, err)
	}
	return s, nil
}

// benchmarking says whether go test was asked to run benchmarks (-bench),
// as make bench does.
func benchmarking() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

func (s *suite) close() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.server != nil {
		s.server.Close()
	}
}

// findChromium returns the browser to run: $RLAB_CHROMIUM, or the first of
// chromiumNames on PATH, or "" if there is none. An RLAB_CHROMIUM that is
// not an executable is an error, not a reason to skip: someone meant to run
// the tests with it.
func findChromium() (string, error) {
	if p := os.Getenv("RLAB_CHROMIUM"); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("RLAB_CHROMIUM=%s is not an executable: %w", p, err)
		}
		return path, nil
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", nil
}

// moduleRoot finds the directory holding go.mod, from the test's working
// directory (e2e/) upwards.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// buildSite makes dir hold the page as make wasm builds it, except that
// main.wasm carries the rlabtest build tag (the ops that break the engine on
// purpose) and the version "e2e": main.wasm, export.wasm (the Export
// button's program), wasm_exec.js from the Go that built them, the site's own files (HTML, JavaScript, CSS, data), and their
// precompressed siblings, brotli at quality. A file whose content is
// unchanged is left alone, modification time included, so that its siblings
// stay up to date and are not recompressed; a file no longer in the site is
// removed.
func buildSite(root, dir string, quality int) error {
	start := time.Now()
	files := map[string][]byte{}

	tmp, err := os.MkdirTemp("", "rlab-e2e-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", wasmbuild.Args(filepath.Join(tmp, "main.wasm"), "e2e", "rlabtest")...)
	cmd.Dir = root
	cmd.Env = wasmbuild.Env(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building main.wasm: %w\n%s", err, out)
	}
	if files["main.wasm"], err = os.ReadFile(filepath.Join(tmp, "main.wasm")); err != nil {
		return err
	}
	cmd = exec.Command("go", wasmbuild.ExportArgs(filepath.Join(tmp, wasmbuild.ExportFile))...)
	cmd.Dir = root
	cmd.Env = wasmbuild.Env(os.Environ())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %w\n%s", wasmbuild.ExportFile, err, out)
	}
	if files[wasmbuild.ExportFile], err = os.ReadFile(filepath.Join(tmp, wasmbuild.ExportFile)); err != nil {
		return err
	}
	if files[wasmbuild.LessonsFile], err = wasmbuild.Lessons(); err != nil {
		return err
	}
	buildTime := time.Since(start)

	// The site's own files: every file in site/ but the outputs make wasm
	// leaves there (main.wasm, export.wasm, wasm_exec.js and compressed copies), which
	// may be stale, and hidden files.
	entries, err := os.ReadDir(filepath.Join(root, "site"))
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || buildOutput(name) {
			continue
		}
		if files[name], err = os.ReadFile(filepath.Join(root, "site", name)); err != nil {
			return err
		}
	}

	// index.html loads the page's scripts as two files joined from its
	// modules, which make wasm writes; they are built here from the
	// sources just read.
	scripts, err := siteserver.BundleScripts(os.DirFS(filepath.Join(root, "site")))
	if err != nil {
		return err
	}
	maps.Copy(files, scripts)

	// wasm_exec.js must come from the Go that built main.wasm.
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(out))
	if files["wasm_exec.js"], err = os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")); err != nil {
		return err
	}

	for name, data := range files {
		if err := writeIfChanged(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	if entries, err = os.ReadDir(dir); err != nil {
		return err
	}
	for _, e := range entries {
		original := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".br"), ".gz")
		if _, ok := files[original]; !ok {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}

	// Precompressed siblings, as make wasm leaves them, so that the page is
	// served the way it is in production: main.wasm as brotli.
	start = time.Now()
	if err := siteserver.Precompress(context.Background(), dir, quality, func(siteserver.Compressed) {}); err != nil {
		return fmt.Errorf("precompressing the site: %w", err)
	}
	fmt.Fprintf(os.Stderr, "e2e: built main.wasm (rlabtest) and export.wasm in %v and precompressed the site (brotli quality %d) in %v, in %s\n",
		buildTime.Round(time.Millisecond), quality, time.Since(start).Round(time.Millisecond), dir)
	return nil
}

// buildOutput says whether a file in site/ is one make wasm writes rather
// than part of the page's source.
func buildOutput(name string) bool {
	return name == "main.wasm" || name == wasmbuild.ExportFile || name == wasmbuild.LessonsFile || name == "wasm_exec.js" || name == siteserver.StartScript || name == siteserver.PageScript ||
		strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz")
}

// writeIfChanged writes data to path unless path already holds it. It
// writes a temporary file and renames it, so a reader never sees half a
// file.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
