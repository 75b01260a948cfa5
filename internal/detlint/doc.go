// Package detlint is the determinism lint that holds core/ to DESIGN.md's
// one rule: a synchronous, deterministic kernel. Run type-checks the
// non-test files of the packages it is given and reports every goroutine,
// channel, select, lock, wall-clock read, real timer, global random draw,
// unsorted map iteration and forbidden import (syscall/js, safejs, and the
// packages that would bring threads or the network into the kernel), each
// with the sentence saying why it breaks determinism. core/doc.go explains
// the rules; core's TestDeterminismLint runs this lint on every package
// under core/.
//
// The lint lives outside core/ so that its fixtures can: testdata/forbidden
// holds one example of every forbidden construct, marked with the message
// the lint must give, and testdata/typeerror a package that does not
// compile. Kept under core/, they would be the only wall-clock reads and
// goroutines there, and every search of core/ for them would find the
// lint's own examples.
package detlint
