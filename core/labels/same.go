package labels

import "unsafe"

// SameSet reports whether a and b are one map, not merely equal ones: a
// map value is one pointer, to the runtime's map, and two maps are one when
// those pointers are. Stored objects share maps (every pod of a ReplicaSet
// holds its template's labels map, and every version of a pod the labels
// of the one before), so code that compares or matches the label sets of
// stored objects, which nothing changes, can answer for one map without
// reading it: the replication manager's claim loop matches a selector once
// for the thousand pods of a ReplicaSet, and the API server finds an
// update's labels unchanged without comparing them key by key.
// TestSameSetIsReflectsIdentity holds it to reflect.Value.UnsafePointer.
func SameSet(a, b Set) bool {
	return *(*unsafe.Pointer)(unsafe.Pointer(&a)) == *(*unsafe.Pointer)(unsafe.Pointer(&b))
}
