package minijson

import (
	"errors"
	"maps"
	"slices"
)

// This file reads and writes JSON as generic values, the way kubectl handles
// an object it prints: objects as map[string]any, arrays as []any, numbers
// as Number (their text, so that nothing is lost to float64), strings,
// booleans and nil.

// Number is a JSON number as written, as encoding/json's Number is.
type Number string

// String returns the number's text.
func (n Number) String() string { return string(n) }

// Value reads one value of any kind as a generic value.
func (d *Decoder) Value() (any, error) {
	switch c := d.peek(); {
	case c == '{':
		m := map[string]any{}
		err := d.Object(func(key string) error {
			v, err := d.Value()
			m[key] = v
			return err
		})
		return m, err
	case c == '[':
		a := []any{}
		err := d.Array(func() error {
			v, err := d.Value()
			a = append(a, v)
			return err
		})
		return a, err
	case c == '"':
		return d.readString()
	case c == 't' || c == 'f':
		var b bool
		err := d.Bool(&b)
		return b, err
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		lit, _, err := d.readNumber()
		return Number(lit), err
	}
	return nil, d.errorf("want a value, found " + d.describe())
}

// Parse reads data, which must hold exactly one JSON value, as a generic
// value.
func Parse(data []byte) (any, error) {
	d := NewDecoder(data)
	v, err := d.Value()
	if err != nil {
		return nil, err
	}
	return v, d.End()
}

// AppendIndent appends the generic value v as encoding/json's MarshalIndent
// with an empty prefix writes it: each member and element on a line of its
// own, indented by indent once per level, a space after each colon, an empty
// object or array as {} or [], and an object's keys in sorted order. Strings
// are written by AppendString. It fails on a value that is not generic, or a
// Number that is not a JSON number.
func AppendIndent(b []byte, v any, indent string) ([]byte, error) {
	return appendIndent(b, v, indent, 0)
}

func appendIndent(b []byte, v any, indent string, level int) ([]byte, error) {
	newline := func(b []byte, level int) []byte {
		b = append(b, '\n')
		for range level {
			b = append(b, indent...)
		}
		return b
	}
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return AppendString(b, v), nil
	case Number:
		if v == "" {
			return append(b, '0'), nil // as encoding/json writes an empty Number
		}
		d := NewDecoder([]byte(v))
		if _, _, err := d.readNumber(); err != nil || d.pos != len(v) {
			return nil, errors.New("minijson: invalid number " + string(v))
		}
		return append(b, v...), nil
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		if len(v) == 0 {
			return append(b, "{}"...), nil
		}
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, level+1)
			b = AppendString(b, k)
			b = append(b, ':', ' ')
			if b, err = appendIndent(b, v[k], indent, level+1); err != nil {
				return nil, err
			}
		}
		return append(newline(b, level), '}'), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		if len(v) == 0 {
			return append(b, "[]"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = newline(b, level+1)
			if b, err = appendIndent(b, e, indent, level+1); err != nil {
				return nil, err
			}
		}
		return append(newline(b, level), ']'), nil
	}
	return nil, errors.New("minijson: not a generic JSON value")
}
