package wasmbuild

import "strings"

// Package is the wasm program's import path, relative to the module root.
const Package = "./wasm"

// Env returns environ with the target set to js/wasm. Later entries win in
// os/exec, so a GOOS or GOARCH already in environ is overridden.
func Env(environ []string) []string {
	return append(environ[:len(environ):len(environ)], "GOOS=js", "GOARCH=wasm")
}

// GCFlags turn the compiler's inlining off in every package but the runtime's
// (see the package documentation for why). For each package the go command
// uses the last -gcflags whose pattern matches it, so the runtime's empty
// flags override all=-l.
var GCFlags = []string{
	"-gcflags=all=-l",
	"-gcflags=runtime=",
	"-gcflags=internal/runtime/...=",
}

// Args returns the arguments of the go command that build the wasm program
// into out: stripped of its symbol table and debug information, with paths
// trimmed so the file does not depend on where the checkout is, and with
// version as main.version (what the page reports as rlab.version; empty
// leaves the program's default). tags are extra build tags, such as the test
// build's rlabtest.
func Args(out, version string, tags ...string) []string {
	ldflags := "-s -w"
	if version != "" {
		ldflags += " -X main.version=" + version
	}
	args := []string{"build", "-trimpath", "-ldflags=" + ldflags}
	args = append(args, GCFlags...)
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	return append(args, "-o", out, Package)
}
