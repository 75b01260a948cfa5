package wasmbuild

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgsBuildTheProgramWithTheSharedFlags(t *testing.T) {
	assert.Equal(t, []string{
		"build", "-trimpath", "-ldflags=-s -w -X main.version=v1.2.3",
		"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=internal/runtime/...=",
		"-gcflags=github.com/reconcilelab/rlab/core/labels=", "-gcflags=github.com/reconcilelab/rlab/core/api=",
		"-gcflags=github.com/reconcilelab/rlab/core/sim=",
		"-o", "site/main.wasm", "./wasm",
	}, Args("site/main.wasm", "v1.2.3"))
}

func TestArgsWithoutVersionKeepTheDefaultAndJoinTags(t *testing.T) {
	args := Args("out.wasm", "", "rlabtest", "other")
	assert.Contains(t, args, "-ldflags=-s -w")
	assert.Contains(t, args, "-tags=rlabtest,other")
	assert.Equal(t, []string{"-o", "out.wasm", "./wasm"}, args[len(args)-3:])
}

func TestExportArgsBuildExportWasmWithMainWasmsFlags(t *testing.T) {
	assert.Equal(t, []string{
		"build", "-trimpath", "-ldflags=-s -w",
		"-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=internal/runtime/...=",
		"-gcflags=github.com/reconcilelab/rlab/core/labels=", "-gcflags=github.com/reconcilelab/rlab/core/api=",
		"-gcflags=github.com/reconcilelab/rlab/core/sim=",
		"-o", "site/export.wasm", "./exportwasm",
	}, ExportArgs("site/"+ExportFile))
}

func TestExemptionsComeAfterAll(t *testing.T) {
	// The go command applies the last matching -gcflags, so the packages
	// that keep their inlining must follow all=-l or they have no effect.
	all := slices.Index(GCFlags, "-gcflags=all=-l")
	require.GreaterOrEqual(t, all, 0)
	for i, f := range GCFlags {
		if i != all {
			assert.Greater(t, i, all, "%s must come after all=-l", f)
		}
	}
}

func TestExemptedEnginePackagesExist(t *testing.T) {
	// A package renamed or moved would silently lose its inlining: its
	// pattern would match nothing.
	const module = "github.com/reconcilelab/rlab/"
	found := 0
	for _, f := range GCFlags {
		pkg, ok := strings.CutPrefix(f, "-gcflags="+module)
		if !ok {
			continue
		}
		found++
		dir := filepath.Join("..", "..", strings.TrimSuffix(pkg, "="))
		info, err := os.Stat(dir)
		require.NoError(t, err, "%s names no package of the module", f)
		assert.True(t, info.IsDir(), dir)
	}
	assert.Equal(t, 3, found, "core/labels, core/api and core/sim keep their inlining")
}

func TestArgsAreFlagsAroundTheOutputAndPackage(t *testing.T) {
	args := Args("x.wasm", "v", "t")
	assert.Equal(t, "build", args[0])
	assert.Equal(t, Flags("v", "t"), args[1:len(args)-3])
}

func TestEnvTargetsJSWasmWithoutTouchingTheCallersSlice(t *testing.T) {
	environ := make([]string, 1, 4)
	environ[0] = "GOOS=plan9"
	env := Env(environ)
	assert.Equal(t, []string{"GOOS=plan9", "GOOS=js", "GOARCH=wasm"}, env)
	assert.Equal(t, []string{"GOOS=plan9"}, environ[:1])
	assert.Equal(t, "", environ[:2][1], "Env does not write into the caller's spare capacity")
}
