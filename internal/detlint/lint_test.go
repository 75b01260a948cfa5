//go:build !js

package detlint

import (
	"fmt"
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
)

// TestLintFlagsFixture runs the lint on testdata/forbidden, which holds one
// example of every forbidden construct marked with a want comment, and the
// allowed forms unmarked. The lint must report every marked line with the
// wanted message and nothing else: that proves it can fail, and that it does
// not flag the forms the kernel is meant to use.
func TestLintFlagsFixture(t *testing.T) {
	t.Parallel()
	const fixture = "testdata/forbidden"
	res, err := Run(t.Context(), ".", []string{"./" + fixture})
	require.NoError(t, err)
	require.Empty(t, res.TypeErrors, "the fixture must type-check, or the lint sees only part of it")

	wants := readWants(t, fixture)
	require.NotEmpty(t, wants)

	// Match each finding to a want on its line whose text it contains.
	matched := map[want]bool{}
	var unexpected []string
	for _, f := range res.Findings {
		file := filepath.Base(f.Pos.Filename)
		i := slices.IndexFunc(wants, func(w want) bool {
			return w.file == file && w.line == f.Pos.Line && strings.Contains(f.What, w.text)
		})
		if i < 0 {
			unexpected = append(unexpected, f.String())
			continue
		}
		matched[wants[i]] = true
	}
	var missing []string
	for _, w := range wants {
		if !matched[w] {
			missing = append(missing, fmt.Sprintf("%s:%d: want %q", filepath.Join(fixture, w.file), w.line, w.text))
		}
	}
	if len(unexpected) > 0 {
		t.Errorf("the lint reported lines the fixture does not mark, or with another message than marked:\n\t%s",
			strings.Join(unexpected, "\n\t"))
	}
	if len(missing) > 0 {
		t.Errorf("the lint missed lines the fixture marks:\n\t%s", strings.Join(missing, "\n\t"))
	}

	// The fixture must exercise every entry of the lint's tables, so that a
	// rule added to a table without an example here fails this test.
	reported := func(substr string) bool {
		return slices.ContainsFunc(res.Findings, func(f Finding) bool { return strings.Contains(f.What, substr) })
	}
	for p := range forbiddenImports {
		assert.True(t, reported(fmt.Sprintf("import of %q", p)), "no example of the forbidden import %q in the fixture", p)
	}
	for name := range forbiddenTimeFuncs {
		assert.True(t, reported("reference to time."+name), "no example of time.%s in the fixture", name)
	}
	for name := range mapIterFuncs {
		assert.True(t, reported("maps."+name+" outside"), "no example of maps.%s in the fixture", name)
	}
	for _, name := range []string{"IntN", "Int", "Float64", "Perm", "Shuffle", "N"} {
		assert.True(t, reported("rand."+name+" "), "no example of rand.%s in the fixture", name)
	}
}

// TestLintReportsTypeErrors pins down how the lint treats a package that does
// not compile: the type error is reported as a type error, apart from the
// lint's findings, and the lint still checks what it can.
func TestLintReportsTypeErrors(t *testing.T) {
	t.Parallel()
	res, err := Run(t.Context(), ".", []string{"./testdata/typeerror"})
	require.NoError(t, err)

	require.Len(t, res.TypeErrors, 1)
	assert.Equal(t, []string{"github.com/reconcilelab/rlab/internal/detlint/testdata/typeerror"}, res.Broken)
	assert.Contains(t, res.TypeErrors[0], "internal/detlint/testdata/typeerror/typeerror.go:7:17: type error: ")
	assert.Contains(t, res.TypeErrors[0], `"three"`)

	require.Len(t, res.Findings, 1, "the lint must still check a package that has type errors")
	assert.Equal(t, "internal/detlint/testdata/typeerror/typeerror.go:9:37: reference to time.Now ("+whyWallClock+")",
		res.Findings[0].String())
}

// TestPackageDirsSkipsTestdata keeps fixtures out of the packages a lint of a
// tree checks: they break the rules on purpose.
func TestPackageDirsSkipsTestdata(t *testing.T) {
	dirs, err := PackageDirs(".")
	require.NoError(t, err)
	assert.Equal(t, []string{"."}, dirs)
}

// want is one `// want "text"` mark in the fixture: the lint must report
// something on that line whose description contains text.
type want struct {
	file string
	line int
	text string
}

// readWants collects the want marks of the fixture's files. A mark holds one
// or more Go string literals, quoted or raw, so a line may want several
// findings.
func readWants(t *testing.T, dir string) []want {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	var wants []want
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, group := range f.Comments {
			for _, c := range group.List {
				wants = append(wants, parseWant(t, fset, c)...)
			}
		}
	}
	return wants
}

func parseWant(t *testing.T, fset *token.FileSet, c *ast.Comment) []want {
	rest, ok := strings.CutPrefix(c.Text, "// want ")
	if !ok {
		return nil
	}
	pos := fset.Position(c.Pos())
	var wants []want
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		quoted, err := strconv.QuotedPrefix(rest)
		require.NoError(t, err, "%s: a want mark holds Go string literals", pos)
		text, err := strconv.Unquote(quoted)
		require.NoError(t, err)
		wants = append(wants, want{file: filepath.Base(pos.Filename), line: pos.Line, text: text})
		rest = rest[len(quoted):]
	}
	return wants
}
