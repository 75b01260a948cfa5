//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so that go build ./... and go vet ./... succeed on every
// platform: a main package needs a main function even where the real one,
// in main_js.go, is excluded by its build tag.
func main() {
	fmt.Fprintln(os.Stderr, "this program runs in a browser: build it with `make wasm` "+
		"(GOOS=js GOARCH=wasm go build ./wasm) and open the page with `make run`")
	os.Exit(2)
}
