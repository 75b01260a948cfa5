package upstream

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

//go:embed manifest.tsv
var manifest string

// Tag is the kubernetes release the manifest was made from, and the tag its
// links point at.
const Tag = "v1.31.14"

// Func is one function or method of the manifest: its file, by its path in
// the kubernetes repository, the line it starts on, and its name, Name for
// a function and Type.Name for a method.
type Func struct {
	File string
	Line int
	Name string
}

// URL links to the function's first line in the kubernetes repository at
// Tag.
func (f Func) URL() string {
	return FileURL(f.File) + "#L" + strconv.Itoa(f.Line)
}

// FileURL links to a file of the kubernetes repository at Tag.
func FileURL(file string) string {
	return "https://github.com/kubernetes/kubernetes/blob/" + Tag + "/" + file
}

type index struct {
	files map[string]bool
	funcs []Func
}

var loaded = sync.OnceValue(func() index {
	ix := index{files: map[string]bool{}}
	for _, line := range strings.Split(manifest, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		ix.files[parts[0]] = true
		if len(parts) == 3 {
			n, err := strconv.Atoi(parts[1])
			if err != nil {
				panic("internal/upstream: manifest line " + strconv.Quote(line) + ": " + err.Error())
			}
			ix.funcs = append(ix.funcs, Func{File: parts[0], Line: n, Name: parts[2]})
		}
	}
	return ix
})

// HasFile reports whether the manifest lists file.
func HasFile(file string) bool { return loaded().files[file] }

// Lookup finds the functions and methods called name: a bare name
// ("syncReplicaSet") matches a function of that name and every method of
// it ("ReplicaSetController.syncReplicaSet"); "Type.Name" matches only that
// method. file, when not empty, keeps those in that file.
func Lookup(name, file string) []Func {
	var out []Func
	for _, f := range loaded().funcs {
		if file != "" && f.File != file {
			continue
		}
		if f.Name == name || !strings.Contains(name, ".") && strings.HasSuffix(f.Name, "."+name) {
			out = append(out, f)
		}
	}
	return out
}
