package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/reconcilelab/rlab/internal/siteserver"
)

var bundleCommand = &command{
	name:     "bundle",
	synopsis: "[--dir=path]",
	summary:  "join the web page's scripts into rlab.js",
	details: "Bundle writes rlab.js in --dir: the page's ES modules (early.js, locale.js,\n" +
		"app.js and offline.js, and every module they import) joined into the one script\n" +
		"index.html loads, each module in its own scope, after the modules it imports. It\n" +
		"is skipped when rlab.js is newer than every module. make wasm runs it.",
	flags: func(fs *flag.FlagSet) runFunc {
		dir := fs.String("dir", "site", "bundle the page in `path`")
		return func(_ context.Context, stdout, _ io.Writer, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected argument %q", args[0])
			}
			if *dir == "" {
				return usageErrorf("--dir is empty; it names the page's directory")
			}
			wrote, err := siteserver.Bundle(*dir)
			if err != nil {
				return fmt.Errorf("cannot bundle the page: %w", err)
			}
			if wrote {
				fmt.Fprintf(stdout, "%s: the page's modules in one file\n",
					filepath.ToSlash(filepath.Join(*dir, siteserver.BundleName)))
			}
			return nil
		}
	},
}
