package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/reconcilelab/rlab/internal/wasmbuild"
)

var wasmCommand = &command{
	name:     "wasm",
	synopsis: "[--out=file] [--version=v] [--tags=t,…] [--go=path]",
	summary:  "build the engine for the web page (main.wasm, export.wasm)",
	details: "Wasm compiles the engine for js/wasm with the flags every build of the page\n" +
		"uses: stripped, with trimmed paths, and with the compiler's inlining off outside the\n" +
		"Go runtime, which makes the file an eighth smaller at no cost in speed (the browser\n" +
		"inlines hot wasm code itself). It runs in the module's root and prints the go\n" +
		"command it ran. Beside the program it writes lessons.json, the lessons, which the\n" +
		"page fetches and main.wasm does not carry, and builds export.wasm with the same\n" +
		"flags: the exporter, which the page fetches only when the learner first presses\n" +
		"Export, so that main.wasm does not carry it either. make wasm runs it.",
	flags: func(fs *flag.FlagSet) runFunc {
		out := fs.String("out", "site/main.wasm", "write the program to `file`")
		version := fs.String("version", "", "report `v` as rlab.version on the page (default: the program's own, dev)")
		tags := fs.String("tags", "", "comma-separated extra build `tags`, such as rlabtest")
		goCmd := fs.String("go", "go", "the go command to build with")
		return func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected argument %q", args[0])
			}
			if *out == "" {
				return usageErrorf("--out is empty; it names the file to write")
			}
			var tagList []string
			if *tags != "" {
				tagList = strings.Split(*tags, ",")
			}
			if err := buildWasm(ctx, stdout, stderr, *goCmd, wasmbuild.Args(*out, *version, tagList...)); err != nil {
				return fmt.Errorf("building %s: %w", filepath.Base(*out), err)
			}
			exportOut := filepath.Join(filepath.Dir(*out), wasmbuild.ExportFile)
			if err := buildWasm(ctx, stdout, stderr, *goCmd, wasmbuild.ExportArgs(exportOut)); err != nil {
				return fmt.Errorf("building %s: %w", wasmbuild.ExportFile, err)
			}
			return writeLessons(stdout, filepath.Join(filepath.Dir(*out), wasmbuild.LessonsFile))
		}
	},
}

// buildWasm runs goCmd with args for js/wasm, echoing the command line first so
// that make's output shows what was built and how.
func buildWasm(ctx context.Context, stdout, stderr io.Writer, goCmd string, args []string) error {
	fmt.Fprintln(stdout, "GOOS=js GOARCH=wasm", goCmd, quoteArgs(args))
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Env = wasmbuild.Env(os.Environ())
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd.Run()
}

// writeLessons writes the lessons the page fetches to path.
func writeLessons(stdout io.Writer, path string) error {
	data, err := wasmbuild.Lessons()
	if err != nil {
		return fmt.Errorf("the lessons' bundle: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: the lessons, %d bytes\n", filepath.ToSlash(path), len(data))
	return nil
}

// quoteArgs joins args as a shell would need them typed, quoting those with
// spaces, so the echoed line can be pasted.
func quoteArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \t") {
			a = "'" + a + "'"
		}
		quoted[i] = a
	}
	return strings.Join(quoted, " ")
}
