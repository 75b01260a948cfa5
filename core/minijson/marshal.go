package minijson

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// This file maps Go values to JSON by their json tags, as encoding/json
// does, for the kinds the engine's types use: booleans, integers, strings,
// pointers, interfaces, slices, map[string]string, and structs. A
// float, a channel or a function is an error, and so is a []byte (which
// encoding/json would write in base64) unless it is a RawMessage.

// Appender is a type that writes its own JSON, as api.Time writes RFC 3339
// or null: what MarshalJSON is to encoding/json. Marshal finds AppendJSON
// only with a value receiver.
type Appender interface {
	AppendJSON(b []byte) []byte
}

// RawMessage is a value's JSON text, kept as written: Decode stores the text
// of the member, which can then be decoded on its own, and Marshal writes it
// back as it is.
type RawMessage []byte

var rawMessageType = reflect.TypeFor[RawMessage]()

// A member is one field of a struct as JSON sees it.
type member struct {
	name      string // the key, from the tag or the field's name
	index     []int  // the field's index, through embedded structs
	omitEmpty bool   // the tag's omitempty: leave the member out when empty
	tagged    bool   // the name comes from a tag
}

// A shape is what a type looks like to JSON: its members, for a struct, and
// whether it writes itself.
type shape struct {
	members  []member
	appender bool
	err      error // why the type cannot be handled
}

// shapes caches the shapes of the types one call meets, so that a list of a
// thousand pods reads each struct's tags once. It lives for one call, not
// the program, because a package-wide cache would need a lock, which core/
// does not have.
type shapes map[reflect.Type]*shape

func (c shapes) of(t reflect.Type) *shape {
	if s, ok := c[t]; ok {
		return s
	}
	s := &shape{}
	c[t] = s
	if _, ok := reflect.Zero(t).Interface().(Appender); ok {
		s.appender = true
		return s
	}
	if t.Kind() != reflect.Struct {
		return s
	}
	// The fields of embedded structs are promoted into the embedding
	// struct's object, where they were declared.
	var all []member
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			path := append(index[:len(index):len(index)], i)
			switch {
			case tag == "-":
			case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
				walk(f.Type, path)
			case f.Anonymous && name == "" && f.Type.Kind() == reflect.Pointer:
				s.err = errors.New("minijson: cannot handle the embedded pointer " + f.Type.String() + " in a " + t.String())
			case f.IsExported():
				m := member{name: name, index: path, omitEmpty: hasOption(opts, "omitempty"), tagged: name != ""}
				if m.name == "" {
					m.name = f.Name
				}
				all = append(all, m)
			}
		}
	}
	walk(t, nil)
	for _, m := range all {
		if dominant(m, all) {
			s.members = append(s.members, m)
		}
	}
	return s
}

// dominant applies encoding/json's rule for two fields that claim one name:
// the one embedded less deeply wins; at equal depth, a tagged one wins over
// untagged ones; otherwise neither is written.
func dominant(m member, all []member) bool {
	for _, o := range all {
		if o.name != m.name || slices.Equal(o.index, m.index) {
			continue
		}
		switch {
		case len(o.index) < len(m.index):
			return false
		case len(o.index) == len(m.index) && (o.tagged || !m.tagged):
			return false
		}
	}
	return true
}

// fieldOf returns the field of the struct v at index.
func fieldOf(v reflect.Value, index []int) reflect.Value {
	for _, i := range index {
		v = v.Field(i)
	}
	return v
}

// hasOption reports whether a tag's comma-separated options include opt.
func hasOption(opts, opt string) bool {
	for o := range strings.SplitSeq(opts, ",") {
		if o == opt {
			return true
		}
	}
	return false
}

// Marshal returns v's JSON, written as encoding/json's Marshal writes it:
// struct members in field order under their tags' names, omitempty members
// left out when empty, embedded structs' members promoted, map keys sorted,
// nil pointers, slices and maps as null, and strings as AppendString writes
// them.
func Marshal(v any) ([]byte, error) { return Append(nil, v) }

// Append appends v's JSON, as Marshal writes it, to b. A caller that writes
// large values often keeps b between calls, so that the buffer does not
// grow again every time.
func Append(b []byte, v any) ([]byte, error) {
	e := encoder{b: b, shapes: shapes{}}
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return b, err
	}
	return e.b, nil
}

// encoder appends one value's JSON to b.
type encoder struct {
	b      []byte
	shapes shapes
}

func (e *encoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Invalid: // a nil interface
		e.b = append(e.b, "null"...)
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.String:
		e.b = AppendString(e.b, v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.value(v.Elem())
	case reflect.Slice:
		return e.slice(v)
	case reflect.Map:
		return e.mapValue(v)
	case reflect.Struct:
		s := e.shapes.of(v.Type())
		switch {
		case s.err != nil:
			return s.err
		case s.appender:
			e.b = v.Interface().(Appender).AppendJSON(e.b)
			return nil
		}
		e.b = append(e.b, '{')
		if err := e.members(v, s); err != nil {
			return err
		}
		e.b = append(e.b, '}')
	default:
		return errors.New("minijson: cannot encode a " + v.Type().String())
	}
	return nil
}

func (e *encoder) slice(v reflect.Value) error {
	switch {
	case v.IsNil():
		e.b = append(e.b, "null"...)
		return nil
	case v.Type() == rawMessageType:
		e.b = append(e.b, v.Bytes()...)
		return nil
	case v.Type().Elem().Kind() == reflect.Uint8:
		return errors.New("minijson: cannot encode a " + v.Type().String() + " (encoding/json would write base64)")
	}
	e.b = append(e.b, '[')
	for i := range v.Len() {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.value(v.Index(i)); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

func (e *encoder) mapValue(v reflect.Value) error {
	m, ok := v.Interface().(map[string]string)
	if !ok {
		return errors.New("minijson: cannot encode a " + v.Type().String() + ": the only maps it writes are map[string]string")
	}
	if m == nil {
		e.b = append(e.b, "null"...)
		return nil
	}
	// The keys in sorted order, as encoding/json writes them.
	e.b = append(e.b, '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = AppendString(e.b, k)
		e.b = append(e.b, ':')
		e.b = AppendString(e.b, m[k])
	}
	e.b = append(e.b, '}')
	return nil
}

// members writes the members of the struct v, whose shape is s.
func (e *encoder) members(v reflect.Value, s *shape) error {
	first := true
	for _, m := range s.members {
		f := fieldOf(v, m.index)
		if m.omitEmpty && isEmpty(f) {
			continue
		}
		if !first {
			e.b = append(e.b, ',')
		}
		first = false
		e.b = AppendString(e.b, m.name)
		e.b = append(e.b, ':')
		if err := e.value(f); err != nil {
			return err
		}
	}
	return nil
}

// isEmpty is omitempty's test: false, 0, "", a nil pointer or interface,
// and an empty slice or map. A struct is never empty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// Decode reads data, one JSON value and nothing after it, into the value v
// points to, as encoding/json's Unmarshal reads it with unknown fields
// disallowed: an object's members go to the fields their tags name, a member
// no field names is an error, null leaves a field as it is (and sets a
// pointer to nil), and an integer must fit its field. Keys are matched
// exactly, where encoding/json also accepts other capitalizations. It reads
// booleans, integers, strings, pointers, slices, structs of those and
// RawMessages: what requests and the lesson bundle hold. A map is an error.
func Decode(data []byte, v any) error {
	p := reflect.ValueOf(v)
	if p.Kind() != reflect.Pointer || p.IsNil() {
		return errors.New("minijson: Decode needs a non-nil pointer")
	}
	d := NewDecoder(data)
	if err := d.into(p.Elem(), shapes{}); err != nil {
		return err
	}
	return d.End()
}

func (d *Decoder) into(v reflect.Value, c shapes) error {
	if v.Type() == rawMessageType {
		raw, err := d.Raw()
		v.SetBytes(raw)
		return err
	}
	switch v.Kind() {
	case reflect.Bool:
		b := v.Bool()
		err := d.Bool(&b)
		v.SetBool(b)
		return err
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, isNull, err := d.integer(v.Type().Bits())
		if err == nil && !isNull {
			v.SetInt(n)
		}
		return err
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, isNull, err := d.unsigned(v.Type().Bits())
		if err == nil && !isNull {
			v.SetUint(n)
		}
		return err
	case reflect.String:
		s := v.String()
		err := d.String(&s)
		v.SetString(s)
		return err
	case reflect.Pointer:
		if isNull, err := d.null(); isNull || err != nil {
			if isNull {
				v.Set(reflect.Zero(v.Type()))
			}
			return err
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.into(v.Elem(), c)
	case reflect.Slice:
		if isNull, err := d.null(); isNull || err != nil {
			if isNull {
				v.Set(reflect.Zero(v.Type()))
			}
			return err
		}
		s := reflect.MakeSlice(v.Type(), 0, 0)
		err := d.Array(func() error {
			s = reflect.Append(s, reflect.Zero(v.Type().Elem()))
			return d.into(s.Index(s.Len()-1), c)
		})
		v.Set(s)
		return err
	case reflect.Struct:
		s := c.of(v.Type())
		if s.err != nil {
			return s.err
		}
		return d.Object(func(key string) error {
			for _, m := range s.members {
				if m.name == key {
					return d.into(fieldOf(v, m.index), c)
				}
			}
			return unknownField(key)
		})
	}
	return errors.New("minijson: cannot decode into a " + v.Type().String())
}
