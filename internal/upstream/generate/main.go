package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// module is one upstream module at the version the project models, and
// where its files are in the kubernetes repository at the v1.31.14 tag (the
// staging modules live under staging/src).
type module struct {
	path, version, inRepo string
	// packages are the directories, relative to the module, whose files go
	// into the manifest.
	packages []string
}

var modules = []module{
	{"k8s.io/kubernetes", "v1.31.14", "", []string{
		"pkg/controller",
		"pkg/controller/replicaset",
		"pkg/controller/replication",
		"pkg/controller/garbagecollector",
		"pkg/controller/deployment",
		"pkg/controller/deployment/util",
		"pkg/apis/core/validation",
		"pkg/apis/apps/validation",
		"pkg/registry/core/pod",
		"pkg/registry/core/pod/storage",
		"pkg/registry/apps/replicaset",
		"pkg/registry/apps/deployment",
		"pkg/registry/core/replicationcontroller",
		"pkg/kubelet",
		"pkg/kubelet/status",
		"pkg/kubelet/pleg",
		"pkg/kubelet/eviction",
		"pkg/kubelet/prober",
		"pkg/scheduler",
		"pkg/scheduler/schedule_one.go",
		"pkg/scheduler/internal/queue",
		"pkg/scheduler/internal/cache",
	}},
	{"k8s.io/client-go", "v0.31.14", "staging/src/k8s.io/client-go", []string{
		"tools/cache",
		"util/workqueue",
		"tools/record",
	}},
	{"k8s.io/apimachinery", "v0.31.14", "staging/src/k8s.io/apimachinery", []string{
		"pkg/labels",
		"pkg/selection",
		"pkg/watch",
		"pkg/api/errors",
		"pkg/apis/meta/v1",
		"pkg/util/wait",
		"pkg/util/validation",
	}},
	{"k8s.io/apiserver", "v0.31.14", "staging/src/k8s.io/apiserver", []string{
		"pkg/registry/generic/registry",
		"pkg/registry/rest",
		"pkg/endpoints/handlers",
	}},
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	cache := strings.TrimSpace(string(out))
	var lines []string
	for _, m := range modules {
		root := filepath.Join(cache, m.path+"@"+m.version)
		if _, err := os.Stat(root); err != nil {
			return fmt.Errorf("%s@%s is not in the module cache (%s): go mod download %s@%s", m.path, m.version, root, m.path, m.version)
		}
		for _, pkg := range m.packages {
			got, err := packageLines(root, m.inRepo, pkg)
			if err != nil {
				return err
			}
			lines = append(lines, got...)
		}
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	var b bytes.Buffer
	b.WriteString("# The upstream files, functions and methods Reconcile Lab may name, at\n")
	b.WriteString("# k8s.io/kubernetes v1.31.14 (staging modules at v0.31.14), by their path in\n")
	b.WriteString("# the kubernetes repository. A line is a file, or a file, a line number and\n")
	b.WriteString("# a function (Name) or method (Type.Name), tab-separated. Written by\n")
	b.WriteString("# go run ./internal/upstream/generate; do not edit.\n")
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join("internal", "upstream", "manifest.tsv"), b.Bytes(), 0o644)
}

// packageLines lists one package directory (or one file) of a module: each
// non-test Go file, and each function and method in it.
func packageLines(root, inRepo, pkg string) ([]string, error) {
	var files []string
	if strings.HasSuffix(pkg, ".go") {
		files = []string{pkg}
	} else {
		entries, err := os.ReadDir(filepath.Join(root, pkg))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !e.IsDir() {
				files = append(files, pkg+"/"+name)
			}
		}
	}
	var lines []string
	fset := token.NewFileSet()
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		repoPath := f
		if inRepo != "" {
			repoPath = inRepo + "/" + f
		}
		lines = append(lines, repoPath)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				name = receiverType(fn.Recv.List[0].Type) + "." + name
			}
			lines = append(lines, fmt.Sprintf("%s\t%d\t%s", repoPath, fset.Position(fn.Pos()).Line, name))
		}
	}
	return lines, nil
}

// receiverType is the name of a method's receiver type, without its star
// or type parameters.
func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
