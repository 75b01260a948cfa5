package printers

import (
	"errors"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/minijson"
)

// This file prints manifests: `kubectl get -o json` and `-o yaml`.
//
// kubectl reads objects as unstructured maps, so both printers write every
// object's keys in sorted order, whatever order the Go types declare them in:
// encoding/json sorts map keys bytewise, and yaml.v2 sorts them in its own
// natural order (see compareYAMLKeys). The manifests here go through the
// same kind of map: the object is marshalled with its JSON tags, parsed
// into maps, given its apiVersion and kind, and written out, all with
// core/minijson, which writes and reads as encoding/json does and keeps that
// package out of the WebAssembly build.

// JSON prints obj as `kubectl get KIND NAME -o json` does: a manifest with
// apiVersion and kind filled in, keys sorted, indented by four spaces, with a
// final newline.
func JSON(obj api.Object) ([]byte, error) {
	m, err := manifest(obj)
	if err != nil {
		return nil, err
	}
	return indentJSON(m)
}

// JSONList prints items as `kubectl get KIND -o json` does when it names no
// single object: a v1 List, even with one item or none.
func JSONList(kind api.Kind, items []api.Object) ([]byte, error) {
	l, err := list(kind, items)
	if err != nil {
		return nil, err
	}
	return indentJSON(l)
}

// YAML prints obj as `kubectl get KIND NAME -o yaml` does.
func YAML(obj api.Object) ([]byte, error) {
	m, err := manifest(obj)
	if err != nil {
		return nil, err
	}
	return encodeYAML(m), nil
}

// YAMLList prints items as `kubectl get KIND -o yaml` does: a v1 List.
func YAMLList(kind api.Kind, items []api.Object) ([]byte, error) {
	l, err := list(kind, items)
	if err != nil {
		return nil, err
	}
	return encodeYAML(l), nil
}

// manifest turns obj into the generic form kubectl prints from: maps, slices,
// strings, minijson.Numbers, booleans and nils, with apiVersion and kind set.
// Stored objects leave their TypeMeta empty, as client-go's typed objects do;
// the kind is the object's own, whatever its TypeMeta says.
func manifest(obj api.Object) (map[string]any, error) {
	if obj == nil {
		return nil, errors.New("printers: no object to print")
	}
	b, err := minijson.Marshal(obj)
	if err != nil {
		return nil, err
	}
	v, err := minijson.Parse(b)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if m == nil { // a nil *Pod, say, is null
		return nil, errors.New("printers: no object to print")
	}
	m["apiVersion"] = obj.Kind().APIVersion()
	m["kind"] = string(obj.Kind())
	return m, nil
}

// list builds the List kubectl's get prints for several objects: items in
// the order given, and list metadata with an empty resourceVersion, which is
// what kubectl's printGeneric copies from the list it assembles itself.
func list(kind api.Kind, items []api.Object) (map[string]any, error) {
	out := make([]any, 0, len(items))
	for _, obj := range items {
		if obj != nil && obj.Kind() != kind {
			return nil, errors.New("printers: a list of " + string(kind) + " holds a " + string(obj.Kind()))
		}
		m, err := manifest(obj)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "List",
		"items":      out,
		"metadata":   map[string]any{"resourceVersion": ""},
	}, nil
}

// indentJSON is kubectl's JSON printer: json.MarshalIndent with four spaces
// (HTML characters escaped, as encoding/json does by default) and a newline.
func indentJSON(v any) ([]byte, error) {
	b, err := minijson.AppendIndent(nil, v, "    ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ApplyYAML prints obj as a manifest to hand to `kubectl apply -f`: what
// YAML prints, less what a client does not send. The status is the
// controllers' and the kubelet's to write, creationTimestamp (null in an
// object not yet created, here and in a pod template) is the API server's,
// and the namespace is left to `kubectl apply -n`, so that one manifest can
// go to any namespace.
func ApplyYAML(obj api.Object) ([]byte, error) {
	m, err := manifest(obj)
	if err != nil {
		return nil, err
	}
	delete(m, "status")
	if meta, ok := m["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
		delete(meta, "namespace")
	}
	if spec, ok := m["spec"].(map[string]any); ok {
		if tmpl, ok := spec["template"].(map[string]any); ok {
			if meta, ok := tmpl["metadata"].(map[string]any); ok {
				delete(meta, "creationTimestamp")
			}
		}
	}
	return encodeYAML(m), nil
}
