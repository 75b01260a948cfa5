//go:build !rlab_k8s_oracle

package printers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The version of k8s.io/api the oracle decodes with, and its checksums from
// sum.golang.org. It must be the version client-go brings into the module
// graph; the test says so when client-go moves on.
const (
	oracleAPIVersion = "v0.31.14"
	oracleAPISums    = "k8s.io/api v0.31.14 h1:xYn/S/WFJsksI7dk/5uBRd3Umm/D8W5g7sRnd4csotA=\n" +
		"k8s.io/api v0.31.14/go.mod h1:K8fvRey4z73RAuxBZCma7WtY8WFvkViYhfFLCMT4xgA=\n"
)

// TestUpstreamTypesOracle runs the tests of oracle_k8s_test.go, which decode
// every manifest with k8s.io/api's types. The module must not require
// k8s.io/api itself, so the test copies go.mod and go.sum to a temporary
// directory, adds k8s.io/api and sigs.k8s.io/yaml there, and runs
// `go test -tags rlab_k8s_oracle -modfile=...` on this package. The
// module's own go.mod and go.sum are not touched. It is skipped with -short,
// and when k8s.io/api is neither in the module cache nor downloadable.
func TestUpstreamTypesOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds k8s.io/api: skipped with -short")
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command: ", err)
	}
	goCmd := func(args ...string) (string, error) {
		out, err := exec.Command(goBin, args...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}

	version, err := goCmd("list", "-m", "-f", "{{.Version}}", "k8s.io/api")
	require.NoError(t, err, version)
	require.Equal(t, oracleAPIVersion, version,
		"client-go now brings another k8s.io/api: update oracleAPIVersion and oracleAPISums (go mod download -json k8s.io/api@%s)", version)

	gomod, err := goCmd("env", "GOMOD")
	require.NoError(t, err, gomod)
	mod, err := os.ReadFile(gomod)
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(gomod), "go.sum"))
	require.NoError(t, err)

	dir := t.TempDir()
	modfile := filepath.Join(dir, "oracle.mod")
	mod = append(mod, "\nrequire (\n\tk8s.io/api "+oracleAPIVersion+"\n\tsigs.k8s.io/yaml v1.4.0\n)\n"...)
	require.NoError(t, os.WriteFile(modfile, mod, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "oracle.sum"), append(sum, oracleAPISums...), 0o644))

	cmd := exec.Command(goBin, "test", "-modfile="+modfile, "-mod=mod", "-tags=rlab_k8s_oracle",
		"-run=^TestK8s", "-count=1", "-v", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, offline := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "GOPROXY=off", "GOFLAGS=-mod=vendor"} {
			if bytes.Contains(out, []byte(offline)) {
				t.Skipf("k8s.io/api %s is not in the module cache and cannot be downloaded:\n%s", oracleAPIVersion, out)
			}
		}
		t.Fatalf("the k8s.io/api oracle failed:\n%s", out)
	}
	t.Logf("%s", out)
}
