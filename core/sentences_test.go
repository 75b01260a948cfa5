//go:build !js

package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/sim"
)

// TestEverySentenceGivesItsFormItsFacts reads the non-test code under core/,
// checks that every form a package variable makes with sim.MustForm is well
// made (sim.CheckForm), and checks every sim.Say of such a form: it must be
// given as many strings as the form has string holes, and then With as many
// numbers as it has number and choice holes (none, and no With, when it has
// none). A sentence given the wrong facts still runs, and shows the misuse in
// its words ("%!(form ..."), but only when a step says it; many sentences
// are said on paths no trace reaches, so they are checked here, where they
// are written.
//
// The forms' words are read from the constant expressions that make them:
// string literals, and constants of core's packages joined with +. A Say
// whose form or facts are not written out (a form chosen at run time, facts
// passed on with ...) is not checked here; the traces check those.
func TestEverySentenceGivesItsFormItsFacts(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{} // by directory, relative to core/
	require.NoError(t, filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], f)
		return nil
	}))

	// Every package's string constants, to evaluate the forms' words.
	consts := map[string]map[string]ast.Expr{} // package directory -> name -> value
	for dir, files := range pkgs {
		consts[dir] = map[string]ast.Expr{}
		for _, f := range files {
			for _, decl := range f.Decls {
				if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
					for _, spec := range gd.Specs {
						vs := spec.(*ast.ValueSpec)
						for i, name := range vs.Names {
							if i < len(vs.Values) {
								consts[dir][name.Name] = vs.Values[i]
							}
						}
					}
				}
			}
		}
	}
	var eval func(dir string, imports map[string]string, e ast.Expr) (string, bool)
	eval = func(dir string, imports map[string]string, e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil && e.Kind == token.STRING
		case *ast.ParenExpr:
			return eval(dir, imports, e.X)
		case *ast.BinaryExpr:
			a, ok1 := eval(dir, imports, e.X)
			b, ok2 := eval(dir, imports, e.Y)
			return a + b, ok1 && ok2 && e.Op == token.ADD
		case *ast.Ident:
			if v, ok := consts[dir][e.Name]; ok {
				return eval(dir, imports, v)
			}
		case *ast.SelectorExpr:
			if pkg, ok := e.X.(*ast.Ident); ok {
				if other, ok := imports[pkg.Name]; ok {
					if v, ok := consts[other][e.Sel.Name]; ok {
						return eval(other, nil, v)
					}
				}
			}
		}
		return "", false
	}

	checked, skipped := 0, 0
	for dir, files := range pkgs {
		inSim := filepath.Base(dir) == "sim"
		// The package's forms: package variables that hold one.
		forms := map[string][2]int{} // strings, numbers
		for _, f := range files {
			imports := importsOf(f)
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						call, ok := vs.Values[i].(*ast.CallExpr)
						if !ok || !isSimFunc(call.Fun, "MustForm", inSim) || len(call.Args) != 1 {
							continue
						}
						where := fset.Position(call.Pos())
						text, ok := eval(dir, imports, call.Args[0])
						if !assert.True(t, ok, "%s: the words of form %s are not a constant this test can read", where, name.Name) {
							continue
						}
						strs, nums, err := sim.CheckForm(text)
						assert.NoError(t, err, "%s: form %s", where, name.Name)
						forms[name.Name] = [2]int{strs, nums}
					}
				}
			}
		}
		for _, f := range files {
			var stack []ast.Node
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				call, ok := n.(*ast.CallExpr)
				if !ok || !isSimFunc(call.Fun, "Say", inSim) || len(call.Args) == 0 {
					return true
				}
				form, ok := call.Args[0].(*ast.Ident)
				if !ok {
					skipped++
					return true
				}
				facts, known := forms[form.Name]
				if !known || call.Ellipsis.IsValid() {
					skipped++
					return true
				}
				checked++
				wantStrs, wantNums := facts[0], facts[1]
				where := fset.Position(call.Pos()).String() + ": sim.Say(" + form.Name + ", …)"
				assert.Equal(t, wantStrs, len(call.Args)-1, "%s: the strings given", where)
				// With, if any, is the call whose function is Say(…).With.
				gotNums := 0
				if len(stack) >= 3 {
					if sel, ok := stack[len(stack)-2].(*ast.SelectorExpr); ok && sel.Sel.Name == "With" {
						if with, ok := stack[len(stack)-3].(*ast.CallExpr); ok && with.Fun == sel {
							gotNums = len(with.Args)
							if with.Ellipsis.IsValid() {
								return true
							}
						}
					}
				}
				assert.Equal(t, wantNums, gotNums, "%s: the numbers given to With", where)
				return true
			})
		}
	}
	t.Logf("checked %d sentences; %d say a form chosen at run time or pass facts on", checked, skipped)
	assert.Greater(t, checked, 250, "the walk found the sentences")
}

// importsOf maps the names a file imports core's packages under to their
// directories relative to core/.
func importsOf(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		rel, ok := strings.CutPrefix(path, "github.com/reconcilelab/rlab/core/")
		if !ok {
			continue
		}
		name := filepath.Base(rel)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		out[name] = filepath.FromSlash(rel)
	}
	return out
}

// isSimFunc reports whether fun names sim's function name: sim.Name, or
// Name inside package sim.
func isSimFunc(fun ast.Expr, name string, inSim bool) bool {
	switch fun := fun.(type) {
	case *ast.SelectorExpr:
		pkg, ok := fun.X.(*ast.Ident)
		return ok && pkg.Name == "sim" && fun.Sel.Name == name
	case *ast.Ident:
		return inSim && fun.Name == name
	}
	return false
}
