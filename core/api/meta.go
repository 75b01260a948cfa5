package api

import (
	"strings"
	"time"
)

// TypeMeta names an object's API group version and kind, as every Kubernetes
// manifest does. Objects inside the store usually leave it empty, as client-go's
// typed objects do; printers fill it in when they write a manifest.
type TypeMeta struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// ObjectMeta is the metadata every stored object carries. The API store owns
// uid, resourceVersion, generation and creationTimestamp: whatever a client sends
// in those fields is replaced on create.
type ObjectMeta struct {
	Name         string `json:"name,omitempty"`
	GenerateName string `json:"generateName,omitempty"`
	Namespace    string `json:"namespace,omitempty"`
	UID          string `json:"uid,omitempty"`

	// ResourceVersion is the store's global counter at the write that produced this
	// version of the object, in decimal. Clients treat it as opaque, as in Kubernetes.
	ResourceVersion string `json:"resourceVersion,omitempty"`

	// Generation counts changes to the desired state (spec). It starts at 1 and only
	// the store bumps it.
	Generation int64 `json:"generation,omitempty"`

	CreationTimestamp Time `json:"creationTimestamp"`

	// DeletionTimestamp is set when a graceful delete has been requested; the object
	// is removed from the store once its grace period has ended.
	DeletionTimestamp          *Time  `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty"`

	Labels          map[string]string `json:"labels,omitempty"`
	Annotations     map[string]string `json:"annotations,omitempty"`
	OwnerReferences []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers      []string          `json:"finalizers,omitempty"`
}

// OwnerReference points from a dependent to its owner. At most one of an object's
// owner references may have Controller set: that owner is its controller.
type OwnerReference struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// IsController reports whether the reference marks the managing controller.
func (r OwnerReference) IsController() bool { return r.Controller != nil && *r.Controller }

// ObjectReference names an object from another object, as an Event's
// involvedObject does.
type ObjectReference struct {
	// Never compared with ==: the field keeps the compiler from writing an
	// equality function for the type (and for every array of it that a
	// list literal makes), which only made main.wasm bigger.
	_ [0]func()

	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// Time is a timestamp as the Kubernetes API carries it: it is written as RFC 3339
// in UTC with whole seconds, and a zero Time is written as null. The API store
// truncates every stored Time to the second, as the real API server's wire format
// does, so what a client reads back is what a real cluster would return.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t} }

// NewTimePtr wraps t and returns a pointer, for the optional timestamp fields.
func NewTimePtr(t time.Time) *Time { return &Time{t} }

// MarshalJSON writes null for the zero time and RFC 3339 seconds otherwise.
func (t Time) MarshalJSON() ([]byte, error) {
	return t.AppendJSON(make([]byte, 0, len(time.RFC3339)+2)), nil
}

// AppendJSON appends what MarshalJSON writes, for core/minijson, which is
// how the printers write manifests without encoding/json.
func (t Time) AppendJSON(b []byte) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	parsed, err := time.Parse(`"`+time.RFC3339+`"`, string(b))
	if err != nil {
		return err
	}
	t.Time = parsed.UTC()
	return nil
}

// Truncated returns t with sub-second precision dropped, as the API stores it.
func (t Time) Truncated() Time { return Time{t.Truncate(time.Second)} }

// Before reports whether t is before u; a nil u counts as the zero time.
func (t *Time) Before(u *Time) bool {
	if t != nil && u != nil {
		return t.Time.Before(u.Time)
	}
	return false
}

// Key returns the store and cache key of an object: "namespace/name", or just
// "name" for cluster-scoped objects such as nodes.
func Key(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// AppendKey appends Key(namespace, name) to dst. A map indexed with
// string(AppendKey(buf[:0], ns, name)) is looked up without making the key:
// the compiler reads the bytes in place.
func AppendKey(dst []byte, namespace, name string) []byte {
	if namespace != "" {
		dst = append(append(dst, namespace...), '/')
	}
	return append(dst, name...)
}

// SplitKey undoes Key. It accepts "name" and "namespace/name"; anything with more
// slashes, or an empty part where one is required, is an error, as upstream's
// SplitMetaNamespaceKey reports.
//
// It cuts the key at its slash rather than splitting it into a slice: every
// request the API server serves splits its key to name what it touched, and
// the slice was an allocation each time.
func SplitKey(key string) (namespace, name string, err error) {
	namespace, name, found := strings.Cut(key, "/")
	if !found {
		if key == "" {
			return "", "", &KeyError{Key: key}
		}
		return "", key, nil
	}
	if name == "" || strings.Contains(name, "/") {
		return "", "", &KeyError{Key: key}
	}
	return namespace, name, nil
}

// KeyError says a work-queue or cache key does not have the form
// "namespace/name" or "name".
type KeyError struct{ Key string }

func (e *KeyError) Error() string {
	return `unexpected key format: "` + e.Key + `" (want "namespace/name" or "name")`
}

// GetControllerOf returns the owner reference marked as controller, or nil when
// the object has none (it is an orphan).
func GetControllerOf(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].IsController() {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// NewControllerRef builds the owner reference a controller puts on the objects it
// creates or adopts: controller and blockOwnerDeletion both true.
func NewControllerRef(owner *ObjectMeta, apiVersion, kind string) OwnerReference {
	yes := true
	block := true
	return OwnerReference{
		APIVersion:         apiVersion,
		Kind:               kind,
		Name:               owner.Name,
		UID:                owner.UID,
		Controller:         &yes,
		BlockOwnerDeletion: &block,
	}
}
