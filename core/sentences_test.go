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
// checks that every form (&sim.Form{Text: ...}) is well made (sim.CheckForm)
// and is made by a package variable, and checks every sim.Say of such a form: it must be
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
		// The package's forms: package variables that hold one. Every form
		// written anywhere in the package, a field of a package variable's
		// struct too, must be well made; and none may be made in a function,
		// where each call would make another (the table of forms has room
		// for the program's forms, not one for each sentence).
		//
		// Each form must be registered once, by a Register call of an init
		// function in its package, and a Register call names forms only.
		forms := map[string][2]int{} // strings, numbers
		made := map[string]token.Position{}
		registered := map[string]int{}
		for _, f := range files {
			imports := importsOf(f)
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					ast.Inspect(decl, func(n ast.Node) bool {
						if _, ok := formWords(n, inSim); ok {
							t.Errorf("%s: a form made in a function; make it a package variable", fset.Position(n.Pos()))
						}
						if call, ok := n.(*ast.CallExpr); ok && isSimFunc(call.Fun, "Register", inSim) {
							if fn, ok := decl.(*ast.FuncDecl); !ok || fn.Name.Name != "init" || fn.Recv != nil {
								t.Errorf("%s: forms registered outside an init function", fset.Position(call.Pos()))
							}
							for _, arg := range call.Args {
								registered[exprString(arg)]++
							}
						}
						return true
					})
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, value := range vs.Values {
						ast.Inspect(value, func(n ast.Node) bool {
							words, ok := formWords(n, inSim)
							if !ok {
								return true
							}
							where := fset.Position(n.Pos())
							text, ok := eval(dir, imports, words)
							if !assert.True(t, ok, "%s: the words of a form are not a constant this test can read", where) {
								return false
							}
							strs, nums, err := sim.CheckForm(text)
							assert.NoError(t, err, "%s: form %s", where, vs.Names[i].Name)
							if n == value {
								forms[vs.Names[i].Name] = [2]int{strs, nums}
								made[vs.Names[i].Name] = where
							} else if field := fieldOf(value, n); field != "" {
								made[vs.Names[i].Name+"."+field] = where
							}
							return false
						})
					}
				}
			}
		}
		for name, where := range made {
			assert.Equal(t, 1, registered[name], "%s: form %s must be registered once, by sim.Register in an init function", where, name)
		}
		for name := range registered {
			_, ok := made[name]
			assert.True(t, ok, "%s: Register names %s, which is not a form of the package", dir, name)
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

// fieldOf names the field of a struct literal, value, whose value is n:
// the form answers.waiting in answers = answerForms{waiting: &sim.Form{...}}.
func fieldOf(value ast.Expr, n ast.Node) string {
	lit, ok := value.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok && kv.Value == n {
			if key, ok := kv.Key.(*ast.Ident); ok {
				return key.Name
			}
		}
	}
	return ""
}

// exprString writes a name or a field selection as code does: form,
// answers.waiting.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return "?"
}

// formWords returns the words of a form, when n makes one: &sim.Form{Text:
// words}, or &Form{Text: words} inside package sim.
func formWords(n ast.Node, inSim bool) (ast.Expr, bool) {
	addr, ok := n.(*ast.UnaryExpr)
	if !ok || addr.Op != token.AND {
		return nil, false
	}
	lit, ok := addr.X.(*ast.CompositeLit)
	if !ok || !isSimFunc(lit.Type, "Form", inSim) || len(lit.Elts) != 1 {
		return nil, false
	}
	kv, ok := lit.Elts[0].(*ast.KeyValueExpr)
	if key, isIdent := kv.Key.(*ast.Ident); !ok || !isIdent || key.Name != "Text" {
		return nil, false
	}
	return kv.Value, true
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
