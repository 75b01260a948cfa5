package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var serveCommand = &command{
	name:     "serve",
	synopsis: "[--addr=host:port] [--dir=path]",
	summary:  "serve the web page on this machine",
	details: "Serve serves the page in --dir, as built by make wasm, and prints the address to open.\n" +
		"It listens on loopback unless --addr names another interface; Ctrl-C stops it.",
	flags: func(fs *flag.FlagSet) runFunc {
		addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0 picks a free one)")
		dir := fs.String("dir", "site", "serve the page in `path`")
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected argument %q", args[0])
			}
			return serve(ctx, stdout, stderr, *addr, *dir)
		}
	},
}

// contentSecurityPolicy is the policy the page is written for, and that every
// response carries: scripts, styles and fetches only from the site itself;
// 'wasm-unsafe-eval' because compiling WebAssembly counts as eval; data: images
// for the inline favicon; no base, forms or framing. It forbids inline scripts
// and styles, so a page that works under it cannot carry an injected one.
//
// site/index.html repeats it in a <meta> tag for static hosts that cannot set
// headers, minus frame-ancestors, which browsers ignore in <meta>; a test keeps
// the two in step.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// contentTypes fixes the type of the files the page is made of. The mime
// package already knows them, but it lets /etc/mime.types override its
// defaults, and a wrong type is fatal here: under nosniff a script not served as
// JavaScript does not run, and instantiateStreaming rejects a .wasm file that is
// not application/wasm.
var contentTypes = map[string]string{
	".css":   "text/css; charset=utf-8",
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".json":  "application/json",
	".svg":   "image/svg+xml",
	".txtar": "text/plain; charset=utf-8",
	".wasm":  "application/wasm",
}

// siteHandler serves the files of site read-only, with the security headers
// the page is written for and the content types it needs.
func siteHandler(site fs.FS) http.Handler {
	files := http.FileServerFS(site)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		// Revalidate on every load, so that a page reloaded after make wasm
		// never runs a stale main.wasm. Unchanged files still cost only a 304.
		h.Set("Cache-Control", "no-cache")

		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "this server only serves files", http.StatusMethodNotAllowed)
			return
		}
		// A directory (ending in /) is served as its index.html, which the file
		// server types by its own name.
		if ct, ok := contentTypes[path.Ext(r.URL.Path)]; ok {
			h.Set("Content-Type", ct)
		}
		files.ServeHTTP(w, r)
	})
}

// serve serves dir at addr until ctx is cancelled, then shuts down gracefully.
func serve(ctx context.Context, stdout, stderr io.Writer, addr, dir string) error {
	// os.Root confines every lookup to dir: a symlink or a crafted path cannot
	// reach a file outside it.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("cannot serve the page: %w", err)
	}
	defer root.Close()
	if _, err := root.Stat("main.wasm"); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "rlab serve: warning: %s has no main.wasm; run make wasm, or the page cannot start\n", displayDir(dir))
	}

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           siteHandler(root.FS()),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(stderr, "rlab serve: ", 0),
	}
	url, everywhere := pageURL(ln.Addr())
	if everywhere {
		fmt.Fprintf(stderr, "rlab serve: warning: listening on every network interface of this machine (%s)\n", ln.Addr())
	}
	fmt.Fprintf(stdout, "serving %s on %s\n", displayDir(dir), url)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err // Serve only returns early if it fails.
	case <-ctx.Done():
	}
	// Stop accepting connections and give requests in flight a moment to
	// finish; a development server has no reason to wait longer.
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// pageURL returns the URL to open for a server listening at addr. A server
// listening on every interface (0.0.0.0 or ::) is reached as localhost, which
// works for both, and everywhere says so.
func pageURL(addr net.Addr) (url string, everywhere bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String(), false
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host, everywhere = "localhost", true
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port)), everywhere
}

// displayDir writes a directory the way a person expects to read it: with
// forward slashes and one trailing slash ("site/").
func displayDir(dir string) string {
	d := filepath.ToSlash(filepath.Clean(dir))
	if strings.HasSuffix(d, "/") {
		return d
	}
	return d + "/"
}
