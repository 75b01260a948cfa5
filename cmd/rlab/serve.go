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
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

var serveCommand = &command{
	name:     "serve",
	synopsis: "[--addr=host:port] [--dir=path]",
	summary:  "serve the web page on this machine",
	details: "Serve serves the page in --dir, as built by make wasm, and prints the address to open.\n" +
		"Files that rlab compress has compressed are sent compressed to browsers that accept it.\n" +
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
		Handler:           siteserver.Handler(root.FS()),
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
