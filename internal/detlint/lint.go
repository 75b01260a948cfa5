package detlint

// This file holds the lint: the loader, which type-checks packages with
// go/types, and the checker, which walks their syntax and reports every
// construct that could make two runs of the kernel with one seed differ. The
// reasons below are the sentences a failing test prints next to each
// violation.
//
// Every decision is made on type information, not on spelling: an identifier
// counts as time.Now because go/types resolved it to the function Now of
// package time, whatever the file called the package (a renamed import, a dot
// import, a variable holding the function). Spelling would miss those and
// would flag a local helper that happens to be called Now.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The reasons, one sentence each, that a violation prints after what it is.
const (
	whyGoroutine = "a goroutine runs when the Go scheduler decides, not when the kernel's agenda does, " +
		"so its effects land in a different order on different runs, and the wasm build has one thread"
	whySelect = "select picks at random among the cases that are ready and blocks when none is, " +
		"which would deadlock the single wasm thread"
	whyChannel = "channels hand values between goroutines and block until the other side is ready; " +
		"the kernel has no other goroutine and models every wait as an agenda event"
	whyWallClock = "it reads the wall clock, which differs on every run; " +
		"use the kernel's logical clock"
	whySleep = "it blocks the only thread for real time; " +
		"schedule an agenda event at a logical time instead"
	whyTimer = "a real timer fires on the wall clock from outside the agenda; " +
		"schedule an agenda event at a logical time instead"
	whyGlobalRand = "the top-level functions draw from a generator seeded at random when the process starts, " +
		"so no seed reproduces them; draw from the kernel's seeded *rand.Rand instead"
	whyMapRange = "the Go runtime randomizes map iteration order, so two runs with one seed would differ; " +
		"range over slices.Sorted(maps.Keys(m)) instead"
	whyMapIter = "it yields in the map's random iteration order; " +
		"only slices.Sorted(maps.Keys(m)) or slices.SortedFunc(maps.Keys(m), cmp) makes that order deterministic"
)

// importRule says why an import path is forbidden and whether the packages
// below it are forbidden too (os forbids os/exec, but math/rand must not
// forbid math/rand/v2, whose seeded generators the kernel uses).
type importRule struct {
	subtree bool
	why     string
}

// forbiddenImports lists every package core/ must not import.
var forbiddenImports = map[string]importRule{
	"sync": {true, "locks and atomics only matter between goroutines, " +
		"and the kernel has none: it is one thread stepping one event at a time"},
	"sync/atomic": {true, "atomics only matter between goroutines, and the kernel has none"},
	"syscall/js": {true, "only wasm/main_js.go touches JavaScript; " +
		"core must build and behave the same natively and in the browser"},
	"github.com/hack-pad/safejs": {true, "only wasm/main_js.go touches JavaScript; " +
		"core must build and behave the same natively and in the browser"},
	"os": {true, "files, environment and processes differ from machine to machine and do not exist in the browser; " +
		"inputs reach the kernel as method calls"},
	"net": {true, "network I/O happens outside the simulation, at moments no seed controls"},
	"math/rand": {false, "its top-level functions draw from a generator seeded at random at start-up; " +
		"draw from the kernel's seeded math/rand/v2 PCG instead"},
	"crypto/rand": {false, "it reads the operating system's entropy, which no seed can reproduce"},
	"hash/maphash": {false, "every process gets a random hash seed, " +
		"so hashes, and anything ordered by them, differ from run to run"},
}

// forbiddenTimeFuncs maps each top-level function of package time that reads
// the wall clock or waits for it to the reason it is forbidden. The rest of
// package time (Duration, Date, Time's methods) is plain arithmetic and allowed.
var forbiddenTimeFuncs = map[string]string{
	"Now":       whyWallClock,
	"Since":     whyWallClock,
	"Until":     whyWallClock,
	"Sleep":     whySleep,
	"After":     whyTimer,
	"AfterFunc": whyTimer,
	"NewTimer":  whyTimer,
	"NewTicker": whyTimer,
	"Tick":      whyTimer,
}

// allowedRandFuncs are the top-level functions of math/rand/v2 that build a
// seeded source or generator. Every other top-level function of that package
// uses the global, randomly seeded source.
var allowedRandFuncs = map[string]bool{
	"New":        true,
	"NewPCG":     true,
	"NewChaCha8": true,
	"NewZipf":    true,
}

// mapIterFuncs are the functions of package maps that yield a map's entries in
// its random order. maps.Clone, maps.Copy and the rest are fine: their result
// does not depend on the order they walk in.
var mapIterFuncs = map[string]bool{"Keys": true, "Values": true, "All": true}

// sortingFuncs are the functions of package slices that may take an iterator
// of maps.Keys or maps.Values, because they sort what it yields.
var sortingFuncs = map[string]bool{"Sorted": true, "SortedFunc": true}

// Finding is one violation of the rule.
type Finding struct {
	Pos  token.Position // Filename is relative to the module root when possible
	What string
	Why  string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s (%s)", f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.What, f.Why)
}

// Result is what one run of the lint found.
type Result struct {
	// Packages are the import paths checked from source, in dependency order.
	Packages []string
	// Findings are the violations, sorted by position.
	Findings []Finding
	// Broken are the import paths of the packages that have type errors.
	Broken []string
	// TypeErrors are the reasons a package could not be loaded or type-checked,
	// each starting with a position or a package path. A package with type
	// errors is still linted as far as its type information goes, but the lint
	// cannot vouch for it.
	TypeErrors []string
}

// maxTypeErrors caps the type errors reported per package: the first few say
// what is wrong, and a page of follow-on errors would bury the lint's findings.
const maxTypeErrors = 10

// listedPackage is the part of `go list -json` output the lint reads.
type listedPackage struct {
	ImportPath     string
	Name           string
	Dir            string
	Export         string
	GoFiles        []string
	CgoFiles       []string
	IgnoredGoFiles []string
	ImportMap      map[string]string
	DepOnly        bool
	Module         *struct {
		Dir       string
		GoVersion string
	}
	Error *struct {
		Err string
	}
}

// PackageDirs finds every directory under root that holds a package the go
// command would build: it has at least one .go file that is not a test, and
// it is not, and is not inside, a testdata directory, a directory whose name
// starts with "." or "_", or a nested module. It returns go list patterns
// relative to root ("." for root itself), sorted.
func PackageDirs(root string) ([]string, error) {
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p == root {
				return nil
			}
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		if rel == "." {
			seen["."] = true
		} else {
			seen["./"+filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs, nil
}

// goList runs the go command's list subcommand in dir and decodes its stream
// of JSON objects. With -e the go command reports broken packages in their
// Error field instead of failing, which is what lets the lint name the
// package that does not compile.
func goList(ctx context.Context, dir string, args ...string) ([]*listedPackage, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		// go test puts GOROOT/bin first on PATH, so this is only a fallback.
		goTool = filepath.Join(build.Default.GOROOT, "bin", "go")
	}
	cmd := exec.CommandContext(ctx, goTool, append([]string{"list"}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []*listedPackage
	dec := json.NewDecoder(&stdout)
	for {
		p := new(listedPackage)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// lintImporter gives go/types the packages a checked package imports. The
// packages being linted come from the lint's own type-check from source, so
// a broken one still yields what types it has and its dependents can still
// be checked. Everything else (the standard library, third-party modules)
// comes from the export data the go command compiled, which is fast and
// works offline.
type lintImporter struct {
	// source holds the packages already checked from source, by import path.
	source map[string]*types.Package
	// exports maps an import path to the file holding its export data.
	exports map[string]string
	// absent maps the import path of a package that has no files for this
	// platform (syscall/js, safejs) to its name. Such a package imports as an
	// empty package: the import is still judged, and any use of its members
	// shows up as a type error.
	absent map[string]string
	// problems maps an import path to the go command's reason it could not
	// compile the package, for the error message.
	problems map[string]string
	gc       types.Importer
}

func newLintImporter(fset *token.FileSet) *lintImporter {
	im := &lintImporter{
		source:   map[string]*types.Package{},
		exports:  map[string]string{},
		absent:   map[string]string{},
		problems: map[string]string{},
	}
	im.gc = importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := im.exports[path]
		if !ok {
			if why, ok := im.problems[path]; ok {
				return nil, fmt.Errorf("no export data for %s: %s", path, why)
			}
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	return im
}

func (im *lintImporter) load(pkgs []*listedPackage) {
	for _, p := range pkgs {
		switch {
		case p.Export != "":
			im.exports[p.ImportPath] = p.Export
		case len(p.GoFiles) == 0 && len(p.CgoFiles) == 0 && len(p.IgnoredGoFiles) > 0:
			im.absent[p.ImportPath] = cmp.Or(p.Name, path.Base(p.ImportPath))
		case p.Error != nil:
			im.problems[p.ImportPath] = p.Error.Err
		}
	}
}

// packageImporter resolves the import paths of one package through its
// ImportMap (vendoring) before asking the shared lintImporter.
type packageImporter struct {
	*lintImporter
	importMap map[string]string
}

func (pi packageImporter) Import(path string) (*types.Package, error) {
	return pi.ImportFrom(path, "", 0)
}

func (pi packageImporter) ImportFrom(path, _ string, _ types.ImportMode) (*types.Package, error) {
	if mapped, ok := pi.importMap[path]; ok {
		path = mapped
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if pkg, ok := pi.source[path]; ok {
		return pkg, nil
	}
	if name, ok := pi.absent[path]; ok {
		pkg := types.NewPackage(path, name)
		pkg.MarkComplete()
		return pkg, nil
	}
	return pi.gc.Import(path)
}

// Run type-checks the packages that the go list patterns name,
// run from dir, and lints their non-test files.
//
// It asks the go command twice: once for the packages and their dependencies
// in dependency order (no compiling), and once for the export data of the
// dependencies that are not being linted (compiled once, then cached by the
// go command). The linted packages are then checked from source, each after
// the ones it imports.
func Run(ctx context.Context, dir string, patterns []string) (*Result, error) {
	listed, err := goList(ctx, dir, append([]string{"-e", "-deps",
		"-json=ImportPath,Name,Dir,GoFiles,CgoFiles,IgnoredGoFiles,ImportMap,DepOnly,Module,Error"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var targets []*listedPackage
	var deps []string
	for _, p := range listed {
		switch {
		case !p.DepOnly:
			targets = append(targets, p)
		case p.ImportPath != "unsafe" && p.ImportPath != "C":
			deps = append(deps, p.ImportPath)
		}
	}

	fset := token.NewFileSet()
	im := newLintImporter(fset)
	if len(deps) > 0 {
		exported, err := goList(ctx, dir, append([]string{"-e", "-export",
			"-json=ImportPath,Name,Export,GoFiles,CgoFiles,IgnoredGoFiles,Error"}, deps...)...)
		if err != nil {
			return nil, err
		}
		im.load(exported)
	}

	res := &Result{}
	for _, p := range targets {
		res.Packages = append(res.Packages, p.ImportPath)
		pkg, findings, typeErrs := checkPackage(fset, im, p)
		im.source[p.ImportPath] = pkg
		res.Findings = append(res.Findings, findings...)
		if len(typeErrs) > 0 {
			res.Broken = append(res.Broken, p.ImportPath)
		}
		if len(typeErrs) > maxTypeErrors {
			more := len(typeErrs) - maxTypeErrors
			typeErrs = append(typeErrs[:maxTypeErrors], fmt.Sprintf("%s: … and %d more type errors", p.ImportPath, more))
		}
		res.TypeErrors = append(res.TypeErrors, typeErrs...)
	}
	slices.SortFunc(res.Findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.What, b.What))
	})
	res.Findings = slices.Compact(res.Findings)
	return res, nil
}

// checkPackage parses and type-checks one package from source and lints it.
// It always returns a package, possibly incomplete, so that packages which
// import a broken one can still be checked.
func checkPackage(fset *token.FileSet, im *lintImporter, p *listedPackage) (*types.Package, []Finding, []string) {
	var root string
	if p.Module != nil {
		root = p.Module.Dir
	}
	relative := func(pos token.Position) token.Position {
		if rel, err := filepath.Rel(root, pos.Filename); root != "" && err == nil {
			pos.Filename = filepath.ToSlash(rel)
		}
		return pos
	}

	var typeErrs []string
	names := append(slices.Clone(p.GoFiles), p.CgoFiles...)
	if len(names) == 0 {
		why := "it has no Go files for " + build.Default.GOOS + "/" + build.Default.GOARCH
		if p.Error != nil {
			why = p.Error.Err
		}
		typeErrs = append(typeErrs, fmt.Sprintf("%s: cannot load package: %s", p.ImportPath, why))
		return types.NewPackage(p.ImportPath, cmp.Or(p.Name, path.Base(p.ImportPath))), nil, typeErrs
	}

	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				typeErrs = append(typeErrs, fmt.Sprintf("%s: syntax error: %s", posString(relative(e.Pos)), e.Msg))
			}
		} else if err != nil {
			typeErrs = append(typeErrs, fmt.Sprintf("%s: cannot read: %v", p.ImportPath, err))
		}
		if f != nil {
			files = append(files, f)
		}
	}

	conf := types.Config{
		Importer:    packageImporter{im, p.ImportMap},
		Sizes:       types.SizesFor("gc", build.Default.GOARCH),
		FakeImportC: true,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				typeErrs = append(typeErrs, fmt.Sprintf("%s: type error: %s", posString(relative(te.Fset.Position(te.Pos))), te.Msg))
			} else {
				typeErrs = append(typeErrs, fmt.Sprintf("%s: type error: %v", p.ImportPath, err))
			}
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	// Check reports its errors through conf.Error; its return value repeats
	// the first of them.
	pkg, _ := conf.Check(p.ImportPath, fset, files, info)

	c := &checker{
		fset:       fset,
		pkg:        pkg,
		info:       info,
		relative:   relative,
		sanctioned: map[*ast.Ident]bool{},
		covered:    map[ast.Node]bool{},
		chanMemo:   map[types.Object]bool{},
	}
	for _, f := range files {
		ast.Inspect(f, c.visit)
	}
	return pkg, c.Findings, typeErrs
}

func posString(pos token.Position) string {
	return fmt.Sprintf("%s:%d:%d", pos.Filename, pos.Line, pos.Column)
}

// checker walks the files of one type-checked package and records findings.
// ast.Inspect visits a node before its children, which lets a parent mark a
// child as already accounted for.
type checker struct {
	fset     *token.FileSet
	pkg      *types.Package
	info     *types.Info
	relative func(token.Position) token.Position
	Findings []Finding

	// sanctioned holds the identifiers naming maps.Keys or maps.Values whose
	// call is the direct first argument of slices.Sorted or slices.SortedFunc.
	sanctioned map[*ast.Ident]bool
	// covered holds channel operations that an enclosing report already
	// accounts for: the cases of a select, the chan type inside make.
	covered map[ast.Node]bool
	// chanMemo remembers, per object of another package, whether its type
	// lets a channel into this package.
	chanMemo map[types.Object]bool
}

func (c *checker) report(pos token.Pos, what, why string) {
	c.Findings = append(c.Findings, Finding{Pos: c.relative(c.fset.Position(pos)), What: what, Why: why})
}

func (c *checker) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.ImportSpec:
		c.checkImport(n)
	case *ast.GoStmt:
		c.report(n.Go, "go statement", whyGoroutine)
	case *ast.SelectStmt:
		c.report(n.Select, "select statement", whySelect)
		c.coverSelectCases(n)
	case *ast.SendStmt:
		if !c.covered[n] {
			c.report(n.Arrow, "channel send", whyChannel)
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !c.covered[n] {
			c.report(n.OpPos, "channel receive", whyChannel)
		}
	case *ast.ChanType:
		if !c.covered[n] {
			c.report(n.Begin, "channel type "+types.ExprString(n), whyChannel)
		}
		// Nothing inside a channel's element type needs a report of its own.
		return false
	case *ast.RangeStmt:
		c.checkRange(n)
	case *ast.CallExpr:
		c.checkCall(n)
	case *ast.Ident:
		c.checkUse(n)
	}
	return true
}

// coverSelectCases marks the channel operations in a select's cases: the
// select is reported once, not again for each of its cases.
func (c *checker) coverSelectCases(s *ast.SelectStmt) {
	for _, clause := range s.Body.List {
		cc, ok := clause.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			continue
		}
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			c.covered[comm] = true
		case *ast.ExprStmt:
			c.covered[ast.Unparen(comm.X)] = true
		case *ast.AssignStmt:
			for _, rhs := range comm.Rhs {
				c.covered[ast.Unparen(rhs)] = true
			}
		}
	}
}

func (c *checker) checkImport(spec *ast.ImportSpec) {
	// The package name object says which package the import brought in. A
	// failed import still gets one (for a fake package with the same path),
	// so the path is always there to judge.
	var obj types.Object
	if spec.Name != nil {
		obj = c.info.Defs[spec.Name]
	} else {
		obj = c.info.Implicits[spec]
	}
	pkgName, ok := obj.(*types.PkgName)
	if !ok {
		return
	}
	imported := pkgName.Imported().Path()
	for p := imported; ; p = path.Dir(p) {
		if rule, ok := forbiddenImports[p]; ok && (p == imported || rule.subtree) {
			c.report(spec.Path.Pos(), fmt.Sprintf("import of %q", imported), rule.why)
			return
		}
		if !strings.Contains(p, "/") {
			return
		}
	}
}

func (c *checker) checkRange(rs *ast.RangeStmt) {
	t := c.info.TypeOf(rs.X)
	if t == nil {
		return
	}
	for _, u := range coreTerms(t) {
		switch u.(type) {
		case *types.Map:
			what := "range over " + types.TypeString(t, types.RelativeTo(c.pkg))
			if _, isParam := types.Unalias(t).(*types.TypeParam); isParam {
				what += " (a type parameter whose core type is a map)"
			} else if _, isNamed := types.Unalias(t).(*types.Named); isNamed {
				what += " (a map)"
			}
			c.report(rs.X.Pos(), what, whyMapRange)
			return
		case *types.Chan:
			c.report(rs.X.Pos(), "range over a channel", whyChannel)
			return
		}
	}
}

// coreTerms returns the underlying types a value of type t can have: the
// underlying type itself, or for a type parameter the underlying types of
// the terms in its constraint's type set. Ranging over a type parameter is
// legal only when those agree, so any map among them means a map range.
func coreTerms(t types.Type) []types.Type {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return []types.Type{t.Underlying()}
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	return interfaceTerms(iface, map[*types.Interface]bool{})
}

func interfaceTerms(iface *types.Interface, seen map[*types.Interface]bool) []types.Type {
	if seen[iface] {
		return nil
	}
	seen[iface] = true
	var terms []types.Type
	for i := range iface.NumEmbeddeds() {
		switch e := iface.EmbeddedType(i).Underlying().(type) {
		case *types.Union:
			for j := range e.Len() {
				terms = append(terms, e.Term(j).Type().Underlying())
			}
		case *types.Interface:
			terms = append(terms, interfaceTerms(e, seen)...)
		default:
			terms = append(terms, e)
		}
	}
	return terms
}

func (c *checker) checkCall(call *ast.CallExpr) {
	switch fn := c.callee(call).(type) {
	case *types.Builtin:
		if fn.Name() != "make" || len(call.Args) == 0 {
			return
		}
		if t := c.info.TypeOf(call); t != nil && slices.ContainsFunc(coreTerms(t), isChan) {
			// One report for the whole make, not another for its chan type.
			c.covered[ast.Unparen(call.Args[0])] = true
			c.report(call.Pos(), types.ExprString(call)+" makes a channel", whyChannel)
		}
	case *types.Func:
		if !isPackageFunc(fn, "slices", sortingFuncs) || len(call.Args) == 0 {
			return
		}
		arg, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
		if !ok {
			return
		}
		if inner, ok := c.callee(arg).(*types.Func); ok && isPackageFunc(inner, "maps", map[string]bool{"Keys": true, "Values": true}) {
			c.sanctioned[calleeIdent(arg)] = true
		}
	}
}

func isChan(t types.Type) bool {
	_, ok := t.(*types.Chan)
	return ok
}

// calleeIdent returns the identifier that names the function a call calls,
// looking through parentheses, explicit instantiation (maps.Keys[M]) and a
// package qualifier, or nil for any other callee.
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// callee returns the object a call calls, when it names one directly.
func (c *checker) callee(call *ast.CallExpr) types.Object {
	if id := calleeIdent(call); id != nil {
		return c.info.Uses[id]
	}
	return nil
}

// isPackageFunc reports whether fn is one of the named top-level functions
// of the package with the given path.
func isPackageFunc(fn *types.Func, pkgPath string, names map[string]bool) bool {
	fn = fn.Origin()
	return fn.Pkg() != nil && fn.Pkg().Path() == pkgPath && fn.Signature().Recv() == nil && names[fn.Name()]
}

// checkUse judges what one identifier refers to.
func (c *checker) checkUse(id *ast.Ident) {
	switch obj := c.info.Uses[id].(type) {
	case *types.Builtin:
		if obj.Name() == "close" {
			c.report(id.Pos(), "close of a channel", whyChannel)
		}
	case *types.Func:
		fn := obj.Origin()
		if fn.Pkg() == nil {
			return // the Error method of the predeclared error interface
		}
		if fn.Signature().Recv() == nil {
			name := fn.Name()
			switch fn.Pkg().Path() {
			case "time":
				if why, ok := forbiddenTimeFuncs[name]; ok {
					c.report(id.Pos(), "reference to time."+name, why)
					return
				}
			case "math/rand/v2":
				if !allowedRandFuncs[name] {
					c.report(id.Pos(), "reference to rand."+name+" (math/rand/v2)", whyGlobalRand)
					return
				}
			case "maps":
				if mapIterFuncs[name] && !c.sanctioned[id] {
					c.report(id.Pos(), "maps."+name+" outside slices.Sorted", whyMapIter)
					return
				}
			}
		}
		c.checkForeignChan(id, fn)
	case *types.Var, *types.TypeName:
		c.checkForeignChan(id, obj)
	}
}

// checkForeignChan reports a use of another package's object whose type lets
// a channel into this package: a function returning one (context's Done), a
// struct with a channel field (time.Timer), a variable or field holding one.
// Channels spelled in this package are reported where they are spelled, so
// only objects from elsewhere need this.
func (c *checker) checkForeignChan(id *ast.Ident, obj types.Object) {
	if obj.Pkg() == nil || obj.Pkg() == c.pkg {
		return
	}
	has, ok := c.chanMemo[obj]
	if !ok {
		has = hasChan(obj.Type(), c.pkg, map[*types.Named]bool{})
		c.chanMemo[obj] = has
	}
	if has {
		c.report(id.Pos(), "use of "+c.describe(id, obj)+", whose type carries a channel", whyChannel)
	}
}

// describe names an object the way a reader would look it up:
// context.Context.Done, time.Timer, (*time.Timer).C, for a field reached
// through a value of a type of this package, myTimer.C.
func (c *checker) describe(id *ast.Ident, obj types.Object) string {
	qualifier := func(p *types.Package) string {
		if p == c.pkg {
			return ""
		}
		return p.Name()
	}
	recvDot := func(t types.Type) string {
		if _, ok := t.(*types.Pointer); ok {
			return "(" + types.TypeString(t, qualifier) + ")."
		}
		return types.TypeString(t, qualifier) + "."
	}
	if fn, ok := obj.(*types.Func); ok {
		if recv := fn.Signature().Recv(); recv != nil {
			return recvDot(recv.Type()) + fn.Name()
		}
	}
	for sel, s := range c.info.Selections {
		if sel.Sel == id {
			return recvDot(s.Recv()) + obj.Name()
		}
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

// hasChan reports whether a value of type t can hand this package a channel:
// t is a channel, or is built from one through pointers, slices, arrays,
// maps, function signatures, or struct fields that the package from can
// reach (exported ones, or its own).
// Interface methods are not followed: calling one that returns a channel is
// reported at the call.
func hasChan(t types.Type, from *types.Package, seen map[*types.Named]bool) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Chan:
		return true
	case *types.Pointer:
		return hasChan(t.Elem(), from, seen)
	case *types.Slice:
		return hasChan(t.Elem(), from, seen)
	case *types.Array:
		return hasChan(t.Elem(), from, seen)
	case *types.Map:
		return hasChan(t.Key(), from, seen) || hasChan(t.Elem(), from, seen)
	case *types.Signature:
		return hasChan(t.Params(), from, seen) || hasChan(t.Results(), from, seen)
	case *types.Tuple:
		for v := range t.Variables() {
			if hasChan(v.Type(), from, seen) {
				return true
			}
		}
	case *types.Struct:
		for f := range t.Fields() {
			if (f.Exported() || f.Pkg() == from) && hasChan(f.Type(), from, seen) {
				return true
			}
		}
	case *types.Named:
		if seen[t.Origin()] {
			return false
		}
		seen[t.Origin()] = true
		return hasChan(t.Underlying(), from, seen)
	}
	return false
}
