//go:build !js

package core_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/internal/detlint"
)

// TestDeterminismLint holds every package under core/ to the one rule of
// DESIGN.md: a synchronous, deterministic kernel. It type-checks the non-test
// files of each package and fails on every goroutine, channel, select, lock,
// wall-clock read, real timer, global random draw, unsorted map iteration and
// forbidden import (see core/doc.go for why each one breaks determinism).
// internal/detlint is the lint, with the fixtures that prove each rule fires.
//
// A package that does not type-check fails the test too, but separately: the
// lint can only vouch for code whose types it knows.
func TestDeterminismLint(t *testing.T) {
	t.Parallel()
	dirs, err := detlint.PackageDirs(".")
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "the walk from core/ found no package, so the lint would check nothing")

	res, err := detlint.Run(t.Context(), ".", dirs)
	require.NoError(t, err)
	t.Logf("checked %d packages: %s", len(res.Packages), strings.Join(res.Packages, " "))

	if len(res.TypeErrors) > 0 {
		t.Errorf("%s: type errors, not determinism violations: a package that does not type-check "+
			"is linted only as far as its types are known, so the lint cannot vouch for it until it builds:\n\t%s",
			strings.Join(res.Broken, ", "), strings.Join(res.TypeErrors, "\n\t"))
	}
	if len(res.Findings) > 0 {
		lines := make([]string, len(res.Findings))
		for i, f := range res.Findings {
			lines[i] = f.String()
		}
		t.Errorf("%d determinism violations in non-test code under core/ "+
			"(the kernel must be synchronous and deterministic; see core/doc.go):\n\t%s",
			len(lines), strings.Join(lines, "\n\t"))
	}
}
