package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

var compressCommand = &command{
	name:     "compress",
	synopsis: "[--dir=path]",
	summary:  "precompress the web page for serving",
	details: "Compress writes FILE.gz and FILE.br beside each .wasm, .js, .css, .html, .svg and\n" +
		".webmanifest file in --dir, which rlab serve then sends to browsers that accept them, and\n" +
		"prints a line for each file it compressed. Brotli is at quality 11, its smallest: main.wasm\n" +
		"takes about 30 seconds. A file whose siblings are no older than it is skipped, so a second\n" +
		"run writes nothing. make wasm runs it.",
	flags: func(fs *flag.FlagSet) runFunc {
		dir := fs.String("dir", "site", "compress the page in `path`")
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected argument %q", args[0])
			}
			if *dir == "" {
				return usageErrorf("--dir is empty; it names the directory to compress")
			}
			return compress(ctx, stdout, *dir)
		}
	},
}

// compress precompresses the page in dir, printing one line per file it
// compressed.
func compress(ctx context.Context, stdout io.Writer, dir string) error {
	// Check dir first, so that a mistyped --dir is reported as such rather
	// than as a failure somewhere inside the walk.
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot compress the page: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("cannot compress the page: %s is not a directory", dir)
	}
	return siteserver.Precompress(ctx, dir, siteserver.ServedQuality, func(c siteserver.Compressed) {
		fmt.Fprintf(stdout, "%s%s: %d bytes, %d gzip, %d brotli\n", displayDir(dir), c.Name, c.Size, c.Gzip, c.Brotli)
	})
}
