// Package forbidden is the determinism lint's fixture. It holds one example of
// every construct the lint forbids under core/, each followed by a want
// comment that names a piece of the message the lint must print for that
// line, and next to them the allowed forms, unmarked, which the lint must leave
// alone. TestLintFlagsFixture checks that the lint reports exactly
// the marked lines: that proves the lint can fail, and that it does not cry wolf.
//
// The package sits under testdata so that the go command never builds it: it
// imports syscall/js, which has no files outside js/wasm.
package forbidden
