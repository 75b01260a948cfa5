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
	summary:  "join the web page's scripts into rlab-start.js and rlab.js",
	details: "Bundle writes rlab-start.js and rlab.js in --dir: the page's ES modules joined into\n" +
		"the two scripts index.html loads, each module in its own scope, after the modules it\n" +
		"imports. rlab-start.js holds early.js and locale.js, which start main.wasm's download,\n" +
		"draw its progress and choose the page's language, and what they import; rlab.js holds\n" +
		"app.js and offline.js and the rest. A script newer than every module it holds is\n" +
		"skipped. make wasm runs it.",
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
			for _, name := range wrote {
				fmt.Fprintf(stdout, "%s: the page's modules joined\n", filepath.ToSlash(filepath.Join(*dir, name)))
			}
			return nil
		}
	},
}
