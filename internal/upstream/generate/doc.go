// Command generate writes internal/upstream's manifest: the Go files, and
// the functions and methods in them, of the upstream packages Reconcile
// Lab's lessons, glossary and trace name, at the versions the project
// models (k8s.io/kubernetes v1.31.14 and its staging modules at v0.31.14).
// It reads them from the Go module cache, so fetch them first:
//
//	go mod download k8s.io/kubernetes@v1.31.14 k8s.io/client-go@v0.31.14 \
//		k8s.io/apimachinery@v0.31.14 k8s.io/apiserver@v0.31.14
//	go run ./internal/upstream/generate
//
// The manifest is committed; nothing in the build or the tests fetches
// anything. To let the lessons name a package not listed in packages below,
// add it and run the generator again.
package main
