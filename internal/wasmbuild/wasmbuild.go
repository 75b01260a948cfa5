package wasmbuild

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/reconcilelab/rlab/lessons"
)

// Package is the wasm program's import path, relative to the module root.
const Package = "./wasm"

// ExportPackage is export.wasm's import path, relative to the module root:
// the page's second program, which writes an export (see exportwasm's
// documentation), built with the same flags as main.wasm.
const ExportPackage = "./exportwasm"

// ExportFile is the name export.wasm is written under, beside main.wasm.
// The page fetches it on the first Export, never at load.
const ExportFile = "export.wasm"

// Env returns environ with the target set to js/wasm. Later entries win in
// os/exec, so a GOOS or GOARCH already in environ is overridden.
func Env(environ []string) []string {
	return append(environ[:len(environ):len(environ)], "GOOS=js", "GOARCH=wasm")
}

// GCFlags turn the compiler's inlining off in every package but the
// runtime's and three small ones of the engine's, whose helpers the
// controllers call for every pod they look at: core/labels (a selector's
// match), core/api (a pod's controller reference and conditions) and core/sim
// (see the package documentation for why, and what they cost and save). For
// each package the go command uses the last -gcflags whose pattern matches
// it, so the empty flags that follow all=-l override it.
var GCFlags = []string{
	"-gcflags=all=-l",
	"-gcflags=runtime=",
	"-gcflags=internal/runtime/...=",
	"-gcflags=github.com/reconcilelab/rlab/core/labels=",
	"-gcflags=github.com/reconcilelab/rlab/core/api=",
	"-gcflags=github.com/reconcilelab/rlab/core/sim=",
}

// Flags returns the go build flags of the wasm program: stripped of its
// symbol table and debug information, with paths trimmed so the file does
// not depend on where the checkout is, with GCFlags, and with version as
// main.version (what the page reports as rlab.version; empty leaves the
// program's default). tags are extra build tags, such as the test build's
// rlabtest.
func Flags(version string, tags ...string) []string {
	ldflags := "-s -w"
	if version != "" {
		ldflags += " -X main.version=" + version
	}
	flags := []string{"-trimpath", "-ldflags=" + ldflags}
	flags = append(flags, GCFlags...)
	if len(tags) > 0 {
		flags = append(flags, "-tags="+strings.Join(tags, ","))
	}
	return flags
}

// Args returns the arguments of the go command, run in the module's root,
// that build the wasm program into out with Flags.
func Args(out, version string, tags ...string) []string {
	args := append([]string{"build"}, Flags(version, tags...)...)
	return append(args, "-o", out, Package)
}

// ExportArgs returns the arguments of the go command, run in the module's
// root, that build export.wasm into out with Flags. It has no version and
// no test ops, so it takes no tags.
func ExportArgs(out string) []string {
	args := append([]string{"build"}, Flags("")...)
	return append(args, "-o", out, ExportPackage)
}

// LessonsFile is the file beside main.wasm that holds the lessons: the page's
// worker fetches it and hands it to the engine, which does not carry them.
const LessonsFile = "lessons.json"

// Lessons returns LessonsFile's content: the lessons package's bundle,
// without the indentation that keeps its diffs readable in the repository.
func Lessons() ([]byte, error) {
	var out bytes.Buffer
	if err := json.Compact(&out, lessons.Bundle()); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
