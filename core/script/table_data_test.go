package script

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/sim"
)

// TestTheTablesAreData keeps every package variable's initializer free of
// calls, so that the compiler lays the command table out as data rather than
// as start-up code (see commands). A conversion, such as string(verb), is
// not a call and is allowed; a function literal's body runs later, and is
// not looked into.
func TestTheTablesAreData(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var calls []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for _, value := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(value, func(n ast.Node) bool {
						switch n := n.(type) {
						case *ast.FuncLit:
							return false
						case *ast.CallExpr:
							if !isConversion(n.Fun) {
								calls = append(calls, fset.Position(n.Pos()).String())
							}
						}
						return true
					})
				}
			}
		}
	}
	assert.Empty(t, calls, "package variables initialized with a call; set them in an init function, or spell the value out and test it here")
}

// isConversion reports whether fun, the callee of a call expression, names
// a type of ours or a predeclared one, as in string(x) or api.Kind(x). Only
// the names the package's initializers use need to be known.
func isConversion(fun ast.Expr) bool {
	switch fun := fun.(type) {
	case *ast.Ident:
		return fun.Name == "string" || fun.Name == "int64" || fun.Name == "byte"
	case *ast.SelectorExpr:
		pkg, ok := fun.X.(*ast.Ident)
		return ok && pkg.Name == "api" && fun.Sel.Name == "Kind"
	}
	return false
}

// TestSpelledOutTablesMatchWhatTheyWouldCompute holds the values the tables
// spell out, to stay data, equal to what they stand for.
func TestSpelledOutTablesMatchWhatTheyWouldCompute(t *testing.T) {
	assert.Equal(t, api.Kinds, allKinds, "allKinds is every kind of the API")

	assert.Equal(t, strconv.Itoa(sim.DefaultMaxSteps), flagMaxSteps.Default)
	assert.Equal(t, sim.DefaultMaxTime.String(), flagMaxTime.Default)

	required := flagSelector
	required.Required = true
	assert.Equal(t, required, flagSelectorRequired)
	required = flagFaultCount
	required.Required = true
	assert.Equal(t, required, flagFaultCountRequired)

	spec := func(name string) *spec {
		i := slices.IndexFunc(table, func(s *spec) bool { return s.Name == name })
		require.GreaterOrEqual(t, i, 0, name)
		return table[i]
	}
	assert.Equal(t, faultVerbs(), spec("fail").Args[0].Values, "fail's verbs are faultTargets'")
	assert.Equal(t, append([]string{"all", "watch", "kubelet"}, faultVerbs()...), spec("heal").Args[0].Values)
	assert.Equal(t, "set the world's knobs: "+strings.Join(configKeyNames(), ", "), spec("config").Summary)

	for _, name := range []string{"label", "annotate", "delete"} {
		flags := spec(name).Flags
		require.Greater(t, len(flags), len(selection), name)
		assert.Equal(t, selection, flags[len(flags)-len(selection):], "%s's flags end with selection's", name)
	}
}
