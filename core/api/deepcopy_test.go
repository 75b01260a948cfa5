package api

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fill sets every field reachable from v to a non-zero value: strings, numbers
// and bools directly, pointers to fresh values, slices and maps with one
// element. A field added to a type is therefore covered by the deep-copy tests
// without anyone remembering to add it here.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(int64(7 + depth))
	case reflect.Ptr:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}

// shares reports the path of the first pointer, slice or map that a and b
// share, or "" when they share no memory.
func shares(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Ptr:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shares(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len() && i < b.Len(); i++ {
			if p := shares(a.Index(i), b.Index(i), path+"[]"); p != "" {
				return p
			}
		}
	case reflect.Map:
		if !a.IsNil() && !b.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() {
				if p := shares(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

func TestDeepCopyCopiesEveryField(t *testing.T) {
	for _, k := range Kinds {
		t.Run(string(k), func(t *testing.T) {
			obj, ok := NewObject(k)
			require.True(t, ok)
			fill(reflect.ValueOf(obj).Elem(), 0)
			cp := obj.DeepCopyObject()
			assert.Equal(t, obj, cp, "the copy must equal the original in every field")
			assert.Empty(t, shares(reflect.ValueOf(obj), reflect.ValueOf(cp), string(k)), "the copy must share no memory")
			assert.Equal(t, k, cp.Kind())
		})
	}
}

func TestDeepCopyOfNil(t *testing.T) {
	assert.Nil(t, (*Pod)(nil).DeepCopy())
	assert.Nil(t, (*ReplicaSet)(nil).DeepCopy())
	assert.Nil(t, (*ReplicationController)(nil).DeepCopy())
	assert.Nil(t, (*Node)(nil).DeepCopy())
	assert.Nil(t, (*Event)(nil).DeepCopy())
	assert.Nil(t, (*LabelSelector)(nil).DeepCopy())
	assert.Nil(t, (*PodTemplateSpec)(nil).DeepCopy())
}

func TestDeepCopyKeepsNilAndEmptyApart(t *testing.T) {
	// A nil selector selects nothing and an empty one everything, so a copy must
	// not turn one into the other.
	rs := &ReplicaSet{}
	assert.Nil(t, rs.DeepCopy().Spec.Selector)
	rs.Spec.Selector = &LabelSelector{}
	assert.NotNil(t, rs.DeepCopy().Spec.Selector)
	rs.Metadata.Labels = map[string]string{}
	assert.NotNil(t, rs.DeepCopy().Metadata.Labels)
}
