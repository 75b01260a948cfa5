// Package upstream knows which files, functions and methods the upstream
// Kubernetes code has, at the release Reconcile Lab models (k8s.io/kubernetes
// v1.31.14, its staging modules client-go, apimachinery and apiserver at
// v0.31.14), so that whatever the project names upstream can be proven to
// exist there, and linked to: the glossary's "where it comes from", the
// sources of the trace's function column (core/source), and the functions
// and files the lessons name.
//
// The knowledge is a manifest, manifest.tsv, committed beside this file and
// embedded in it: every non-test Go file of the packages the project names,
// and every function and method in them, with its line, by its path in the
// kubernetes repository (client-go's reflector.go is
// staging/src/k8s.io/client-go/tools/cache/reflector.go there). The
// generator, go run ./internal/upstream/generate, reads the packages from
// the Go module cache; the build and the tests never fetch anything. It is
// a manifest rather than the code itself because the project's own build
// must not depend on upstream modules: the tests check names against a
// list, not against a compiler.
//
// Only native code (tests, rlab lessons --check) uses it: the page carries
// the few links it shows, in core/source's table, not the manifest.
package upstream
