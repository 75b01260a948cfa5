// Package gotool runs the go command from tests: building main.wasm for
// js/wasm, listing a build's dependencies, reading go env. Several packages'
// tests need it (the wasm program's, the site server's, rlab's), so it lives
// here once.
//
// It runs "go" from PATH, which go test puts first: the toolchain running the
// tests, so a test builds with the same Go it is compiled by.
package gotool
