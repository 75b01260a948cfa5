//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so that go build ./... and go vet ./... succeed on every
// platform; the real one, in main_js.go, runs in the page's export worker.
func main() {
	fmt.Fprintln(os.Stderr, "this program runs in a browser: build it with `make wasm` "+
		"(rlab wasm writes site/export.wasm) and press Export on the page")
	os.Exit(2)
}
