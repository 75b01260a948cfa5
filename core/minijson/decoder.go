package minijson

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decoder reads one JSON text from the front, value by value, checking its
// syntax as it goes and saying what was wrong, and where: Object and Array
// call a function for each member or element, String and Bool read a
// scalar, Skip and Raw read any value, Value reads one as a generic value,
// and End checks that nothing but white space is left. Decode and Parse are
// built on it.
//
// Like encoding/json, it replaces each byte of invalid UTF-8 in a string with
// U+FFFD, and so a \u escape of half a surrogate pair, and refuses values
// nested more than 10,000 deep.
type Decoder struct {
	data []byte
	pos  int
	// depth is how many objects and arrays are open, bounded by maxDepth.
	depth int
}

// maxDepth bounds how deeply values may nest, as encoding/json bounds it, so
// that hostile input cannot exhaust the stack.
const maxDepth = 10000

// NewDecoder returns a Decoder reading data.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// SyntaxError says where the text stopped being the JSON a reader expected.
type SyntaxError struct {
	Msg    string
	Offset int // the byte offset in the text
}

func (e *SyntaxError) Error() string {
	return e.Msg + " at offset " + strconv.Itoa(e.Offset)
}

func (d *Decoder) errorf(msg string) error { return &SyntaxError{Msg: msg, Offset: d.pos} }

// describe names the byte at the reading position for an error message.
func (d *Decoder) describe() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	return "character " + strconv.QuoteRune(rune(d.data[d.pos]))
}

// typeError says the value at the reading position is not of the kind want.
func (d *Decoder) typeError(want string) error {
	return d.errorf("want " + want + ", found " + d.kindAhead())
}

// kindAhead names the kind of value that starts at the reading position.
func (d *Decoder) kindAhead() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || ('0' <= c && c <= '9'):
		return "a number"
	}
	return d.describe()
}

// space skips white space.
func (d *Decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte, or 0 at the end (which
// no reader mistakes for a value: a 0 byte is no value's first byte either).
func (d *Decoder) peek() byte {
	d.space()
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

// End checks that nothing but white space follows the values read.
func (d *Decoder) End() error {
	if d.space(); d.pos < len(d.data) {
		return d.errorf("unexpected data after the JSON value")
	}
	return nil
}

// null reads null if it comes next, and reports whether it did.
func (d *Decoder) null() (bool, error) {
	if d.peek() != 'n' {
		return false, nil
	}
	return true, d.literal("null")
}

// literal reads the word lit (true, false or null).
func (d *Decoder) literal(lit string) error {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		return d.errorf("invalid literal, want " + lit)
	}
	d.pos += len(lit)
	return nil
}

// Object reads an object, calling member with each key; member must read the
// member's value (with Skip if it is not wanted) or return an error, which
// Object returns. null is read as no object: member is not called.
func (d *Decoder) Object(member func(key string) error) error {
	if isNull, err := d.null(); isNull || err != nil {
		return err
	}
	if d.peek() != '{' {
		return d.typeError("an object")
	}
	if err := d.open(); err != nil {
		return err
	}
	if d.peek() == '}' {
		d.close()
		return nil
	}
	for {
		if d.peek() != '"' {
			return d.errorf("want a string for a key, found " + d.describe())
		}
		key, err := d.readString()
		if err != nil {
			return err
		}
		if d.peek() != ':' {
			return d.errorf("want ':' after a key, found " + d.describe())
		}
		d.pos++
		if err := member(key); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.close()
			return nil
		default:
			return d.errorf("want ',' or '}' in an object, found " + d.describe())
		}
	}
}

// Array reads an array, calling elem for each element, which must read it.
// null is read as no array: elem is not called.
func (d *Decoder) Array(elem func() error) error {
	if isNull, err := d.null(); isNull || err != nil {
		return err
	}
	if d.peek() != '[' {
		return d.typeError("an array")
	}
	if err := d.open(); err != nil {
		return err
	}
	if d.peek() == ']' {
		d.close()
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.close()
			return nil
		default:
			return d.errorf("want ',' or ']' in an array, found " + d.describe())
		}
	}
}

// open steps into an object or array; close steps out of it.
func (d *Decoder) open() error {
	if d.depth == maxDepth {
		return d.errorf("values nested too deeply")
	}
	d.depth++
	d.pos++
	return nil
}

func (d *Decoder) close() { d.depth--; d.pos++ }

// String reads a string into *p; null leaves *p as it is.
func (d *Decoder) String(p *string) error {
	if isNull, err := d.null(); isNull || err != nil {
		return err
	}
	if d.peek() != '"' {
		return d.typeError("a string")
	}
	s, err := d.readString()
	if err == nil {
		*p = s
	}
	return err
}

// Bool reads true or false into *p; null leaves *p as it is.
func (d *Decoder) Bool(p *bool) error {
	switch d.peek() {
	case 'n':
		return d.literal("null")
	case 't':
		*p = true
		return d.literal("true")
	case 'f':
		*p = false
		return d.literal("false")
	}
	return d.typeError("true or false")
}

// unsigned reads a non-negative integer of the given size in bits, or null.
func (d *Decoder) unsigned(bits int) (v uint64, isNull bool, err error) {
	if isNull, err := d.null(); isNull || err != nil {
		return 0, isNull, err
	}
	start := d.pos
	lit, err := d.integerLiteral()
	if err != nil {
		return 0, false, err
	}
	v, err = strconv.ParseUint(lit, 10, bits)
	if err != nil {
		return 0, false, &SyntaxError{Msg: "number " + lit + " does not fit an unsigned " + strconv.Itoa(bits) + "-bit integer", Offset: start}
	}
	return v, false, nil
}

// integer reads an integer of the given size in bits, or null.
func (d *Decoder) integer(bits int) (v int64, isNull bool, err error) {
	if isNull, err := d.null(); isNull || err != nil {
		return 0, isNull, err
	}
	start := d.pos
	lit, err := d.integerLiteral()
	if err != nil {
		return 0, false, err
	}
	v, err = strconv.ParseInt(lit, 10, bits)
	if err != nil {
		return 0, false, &SyntaxError{Msg: "number " + lit + " does not fit a " + strconv.Itoa(bits) + "-bit integer", Offset: start}
	}
	return v, false, nil
}

// integerLiteral reads a number and returns its text, which must be an
// integer: no fraction, no exponent.
func (d *Decoder) integerLiteral() (string, error) {
	if c := d.peek(); c != '-' && (c < '0' || c > '9') {
		return "", d.typeError("an integer")
	}
	start := d.pos
	lit, isInt, err := d.readNumber()
	if err != nil {
		return "", err
	}
	if !isInt {
		return "", &SyntaxError{Msg: "want an integer, found the number " + lit, Offset: start}
	}
	return lit, nil
}

// Skip reads one value of any kind, checking its syntax, and drops it.
func (d *Decoder) Skip() error {
	switch c := d.peek(); {
	case c == '{':
		return d.Object(func(string) error { return d.Skip() })
	case c == '[':
		return d.Array(d.Skip)
	case c == '"':
		_, err := d.readString()
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		_, _, err := d.readNumber()
		return err
	}
	return d.errorf("want a value, found " + d.describe())
}

// Raw reads one value of any kind, checking its syntax, and returns its
// text as written (without the white space around it).
func (d *Decoder) Raw() ([]byte, error) {
	d.space()
	start := d.pos
	if err := d.Skip(); err != nil {
		return nil, err
	}
	return d.data[start:d.pos], nil
}

// readNumber reads a number as JSON writes it, -?(0|[1-9][0-9]*)(.[0-9]+)?
// ([eE][+-]?[0-9]+)?, and reports whether it is an integer (no fraction, no
// exponent).
func (d *Decoder) readNumber() (lit string, isInt bool, err error) {
	start := d.pos
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case digits() == 0:
		return "", false, d.errorf("want a digit in a number, found " + d.describe())
	}
	isInt = true
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		isInt = false
		if digits() == 0 {
			return "", false, d.errorf("want a digit after the decimal point, found " + d.describe())
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		isInt = false
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return "", false, d.errorf("want a digit in an exponent, found " + d.describe())
		}
	}
	return string(d.data[start:d.pos]), isInt, nil
}

// readString reads a string, the reading position being at its opening
// quote, and returns its content with the escapes decoded.
func (d *Decoder) readString() (string, error) {
	d.pos++ // the opening quote
	start := d.pos
	// The common case, a string without escapes or invalid UTF-8, is a slice
	// of the input.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := string(d.data[start:d.pos])
			d.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		d.pos++
	}
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(buf), nil
		case c < 0x20:
			return "", d.errorf("invalid " + d.describe() + " in a string: control characters must be escaped")
		case c == '\\':
			var err error
			if buf, err = d.escape(buf); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d.data[d.pos:d.pos+size]...)
			}
			d.pos += size
		}
	}
	return "", d.errorf("unterminated string")
}

// escape decodes the escape sequence at the reading position, appending it
// to buf.
func (d *Decoder) escape(buf []byte) ([]byte, error) {
	if d.pos+1 >= len(d.data) {
		return nil, d.errorf("unterminated string")
	}
	c := d.data[d.pos+1]
	if simple := simpleEscape(c); simple != 0 {
		d.pos += 2
		return append(buf, simple), nil
	}
	if c != 'u' {
		return nil, d.errorf("invalid escape \\" + string(rune(c)) + " in a string")
	}
	r, ok := d.hex4(d.pos + 2)
	if !ok {
		return nil, d.errorf("invalid \\u escape in a string: want four hexadecimal digits")
	}
	d.pos += 6
	if utf16.IsSurrogate(r) {
		// A surrogate pair is one character written as two escapes; half
		// of one is no character, and reads as U+FFFD, as encoding/json
		// reads it.
		if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
			if r2, ok := d.hex4(d.pos + 2); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					d.pos += 6
					return utf8.AppendRune(buf, pair), nil
				}
			}
		}
		r = utf8.RuneError
	}
	return utf8.AppendRune(buf, r), nil
}

// simpleEscape returns the byte that the letter c stands for after a
// backslash, or 0 if c is not one of those letters.
func simpleEscape(c byte) byte {
	switch c {
	case '"', '\\', '/':
		return c
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return 0
}

// hex4 reads the four hexadecimal digits at data[i:].
func (d *Decoder) hex4(i int) (rune, bool) {
	if i+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unknownField is the error Decode returns for a key no field names.
func unknownField(key string) error {
	return errors.New("unknown field " + strconv.Quote(key))
}
