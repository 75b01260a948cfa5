package minijson_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/internal/jsontest"
)

// everything has a field of every kind the Writer writes, plain and
// omitempty, for the comparison with encoding/json.
type everything struct {
	S      string            `json:"s"`
	OptS   string            `json:"optS,omitempty"`
	I      int               `json:"i"`
	OptI   int32             `json:"optI,omitempty"`
	I64    int64             `json:"i64"`
	U      uint64            `json:"u"`
	OptU   uint64            `json:"optU,omitempty"`
	B      bool              `json:"b"`
	OptB   bool              `json:"optB,omitempty"`
	SS     []string          `json:"ss"`
	OptSS  []string          `json:"optSS,omitempty"`
	M      map[string]string `json:"m"`
	OptM   map[string]string `json:"optM,omitempty"`
	Obj    Inner             `json:"obj"`
	OptObj *Inner            `json:"optObj,omitempty"`
	L      []Inner           `json:"l"`
	OptL   []Inner           `json:"optL,omitempty"`
	Inner
}

type Inner struct {
	Name string `json:"name"`
	N    int    `json:"n,omitempty"`
}

func (e *everything) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("s", e.S)
	w.OptString("optS", e.OptS)
	w.Int("i", int64(e.I))
	w.OptInt("optI", int64(e.OptI))
	w.Int("i64", e.I64)
	w.Uint("u", e.U)
	w.OptUint("optU", e.OptU)
	w.Bool("b", e.B)
	w.OptBool("optB", e.OptB)
	w.Strings("ss", e.SS)
	w.OptStrings("optSS", e.OptSS)
	w.StringMap("m", e.M)
	w.OptStringMap("optM", e.OptM)
	minijson.Object(w, "obj", &e.Obj)
	minijson.OptObject(w, "optObj", e.OptObj)
	minijson.List(w, "l", e.L)
	minijson.OptList(w, "optL", e.OptL)
	e.Inner.members(w)
	w.EndObject()
}

func (in *Inner) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	in.members(w)
	w.EndObject()
}

// members writes Inner's members, also where Inner is embedded and its
// fields are promoted into the embedding struct's object.
func (in *Inner) members(w *minijson.Writer) {
	w.String("name", in.Name)
	w.OptInt("n", int64(in.N))
}

func TestWriterWritesWhatEncodingJSONWrites(t *testing.T) {
	jsontest.Check[everything](t)
}

// forgetful's EncodeJSON leaves out a field: the check must notice.
type forgetful struct {
	Kept      string `json:"kept"`
	Forgotten string `json:"forgotten,omitempty"`
}

func (f *forgetful) EncodeJSON(w *minijson.Writer) {
	w.BeginObject()
	w.String("kept", f.Kept)
	w.EndObject()
}

func TestCheckNamesAForgottenField(t *testing.T) {
	ft := &fakeT{}
	func() {
		defer func() {
			if r := recover(); r != nil && r != (stopCheck{}) {
				panic(r)
			}
		}()
		jsontest.Check[forgetful](ft)
	}()
	require.True(t, ft.failed, "the check passed an encoder that forgets a field")
	assert.Contains(t, ft.msg, "member .forgotten is missing: add its line to EncodeJSON")
}

// fakeT records a failure instead of failing the test; its Fatalf stops the
// check with a panic that the test recovers, as testing's FailNow stops a
// test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, formatMsg(format, args...)
	panic(stopCheck{})
}
func (f *fakeT) Errorf(format string, args ...any) {
	f.failed, f.msg = true, formatMsg(format, args...)
}

type stopCheck struct{}

func formatMsg(format string, args ...any) string {
	b, _ := json.Marshal(args) // enough to search the message's arguments
	return format + string(b)
}

// TestAppendStringWritesWhatEncodingJSONWrites checks AppendString against
// encoding/json on tricky and random strings.
func TestAppendStringWritesWhatEncodingJSONWrites(t *testing.T) {
	check := func(s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(minijson.AppendString(nil, s)), "string %q", s)
	}
	for _, s := range []string{
		"", "plain", `quote"`, `back\slash`, "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<script>&amp;</script>",
		"\u2028\u2029", "héllo wörld ✓ 😀", "\xff", "a\xc3", "\xed\xa0\x80", "é\xe2\x82",
	} {
		check(s)
	}
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte("ab\"\\<>&\x00\x1f\n\x7f\xc3\xa9\xe2\x80\xa8\xff")
	for range 5000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
	assert.False(t, utf8.ValidString("\xff"), "the corpus must include invalid UTF-8")
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "web", "<&>", "\x00\x1f\"\\\b\f\n\r\t", "\u2028\u2029", "\xff\xfe", "é🙂", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(minijson.AppendString(nil, s)))
	})
}

// args is what the decoding tests read: every reader of the Decoder.
type args struct {
	S   string
	N   int
	I64 int64
	U   uint64
	B   bool
	P   *int
	Sub struct{ S string }
	Raw []byte
}

// decode reads data as the bridge reads a request: an object of known
// fields, and nothing after it.
func decode(data []byte) (args, error) {
	var a args
	d := minijson.NewDecoder(data)
	err := d.Object(func(key string) error {
		switch key {
		case "s":
			return d.String(&a.S)
		case "n":
			return d.Int(&a.N)
		case "i64":
			return d.Int64(&a.I64)
		case "u":
			return d.Uint64(&a.U)
		case "b":
			return d.Bool(&a.B)
		case "p":
			return d.IntPtr(&a.P)
		case "sub":
			return d.Object(func(key string) error {
				if key == "s" {
					return d.String(&a.Sub.S)
				}
				return minijson.UnknownField(key)
			})
		case "raw":
			raw, err := d.Raw()
			a.Raw = bytes.Clone(raw)
			return err
		}
		return minijson.UnknownField(key)
	})
	if err == nil {
		err = d.End()
	}
	return a, err
}

// stdArgs is args as encoding/json reads it.
type stdArgs struct {
	S   string `json:"s"`
	N   int    `json:"n"`
	I64 int64  `json:"i64"`
	U   uint64 `json:"u"`
	B   bool   `json:"b"`
	P   *int   `json:"p"`
	Sub struct {
		S string `json:"s"`
	} `json:"sub"`
	Raw json.RawMessage `json:"raw"`
}

// stdDecode is decode's twin with encoding/json: a Decoder refusing unknown
// fields, and then nothing but white space.
func stdDecode(data []byte) (stdArgs, error) {
	var a stdArgs
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return a, assert.AnError
	}
	return a, nil
}

var decodeSeeds = []string{
	`{}`, `null`, ` {"s":"web","n":3} `, `{"s":null,"n":null,"p":null}`, `{"p":7}`, `{"u":18446744073709551615}`,
	`{"u":18446744073709551616}`, `{"u":-1}`, `{"n":-0}`, `{"n":1.0}`, `{"n":1e2}`, `{"n":01}`, `{"n":"3"}`,
	`{"i64":-9223372036854775808}`, `{"i64":9223372036854775808}`, `{"b":true,"b":false}`, `{"b":1}`,
	`{"s":"\u00e9\ud83d\ude42\ud800x\udc00\"\\\/\b\f\n\r\t"}`, `{"s":"a` + "\x01" + `"}`, `{"s":"\xff"}`,
	`{"s":"\u12"}`, `{"s":"\q"}`, `{"x":1}`, `{"sub":{"s":"a"}}`, `{"sub":{"t":1}}`, `{"sub":[]}`,
	`{"raw":[1,{"a":[true,false,null]},"s",-1.5e+3]}`, `{"raw":[1,]}`, `{"raw":tru}`, `[]`, `{"s":"a"} x`,
	`{"s":"a"}{}`, `{"s" "a"}`, `{"s":"a",}`, `{,}`, ``, `{"s":"a"`, `"s"`, `{"raw":-}`, `{"raw":1.}`, `{"raw":1e}`,
}

// FuzzDecoderAgreesWithEncodingJSON decodes the same text with the Decoder and
// with encoding/json: both accept it with the same values, or both refuse it.
// Keys that match a field only when capitalization is ignored, which
// encoding/json accepts and the Decoder does not, are the one difference.
func FuzzDecoderAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decode(data)
		want, stdErr := stdDecode(data)
		if stdErr == nil && err != nil && strings.Contains(err.Error(), "unknown field") {
			return // a key in another capitalization, which encoding/json accepts
		}
		require.Equal(t, stdErr == nil, err == nil, "%q: encoding/json says %v, the Decoder %v", data, stdErr, err)
		if err != nil {
			return
		}
		assert.Equal(t, want.S, got.S)
		assert.Equal(t, want.N, got.N)
		assert.Equal(t, want.I64, got.I64)
		assert.Equal(t, want.U, got.U)
		assert.Equal(t, want.B, got.B)
		assert.Equal(t, want.P, got.P)
		assert.Equal(t, want.Sub.S, got.Sub.S)
		assert.Equal(t, string(want.Raw), string(got.Raw))
	})
}

func TestDecoderSaysWhatWasWrong(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"x":1}`, `unknown field "x"`},
		{`{"n":"3"}`, "want an integer, found a string at offset 5"},
		{`{"n":1.5}`, "want an integer, found the number 1.5"},
		{`{"n":99999999999999999999}`, "does not fit a 64-bit integer"},
		{`{"s":"a"} x`, "unexpected data after the JSON value"},
		{`{"s":"a`, "unterminated string"},
		{`[]`, "want an object, found an array"},
		{`{"s":"a" "b"}`, "want ',' or '}' in an object"},
	} {
		_, err := decode([]byte(tc.in))
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.want, tc.in)
	}
}

func TestDecoderRefusesDeepNesting(t *testing.T) {
	deep := `{"raw":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	_, err := decode([]byte(deep))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nested too deeply")
}

// FuzzGenericValues reads JSON as generic values and writes it indented,
// against encoding/json doing the same with UseNumber and MarshalIndent.
func FuzzGenericValues(f *testing.F) {
	for _, s := range append(decodeSeeds, `{"b":[],"a":{},"c":[{"z":1,"y":null}],"é":"<\u2028>"}`, `0`, `[-0.5e10]`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := minijson.Unmarshal(data)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		stdErr := dec.Decode(&want)
		if stdErr == nil && len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
			stdErr = assert.AnError // more than one value
		}
		require.Equal(t, stdErr == nil, err == nil, "%q: encoding/json says %v, Unmarshal %v", data, stdErr, err)
		if err != nil {
			return
		}
		wantText, err := json.MarshalIndent(want, "", "    ")
		require.NoError(t, err)
		gotText, err := minijson.AppendIndent(nil, got, "    ")
		require.NoError(t, err)
		assert.Equal(t, string(wantText), string(gotText))
	})
}

func TestAppendIndentRefusesWhatIsNotJSON(t *testing.T) {
	_, err := minijson.AppendIndent(nil, map[string]any{"n": minijson.Number("1x")}, "  ")
	assert.ErrorContains(t, err, "invalid number")
	_, err = minijson.AppendIndent(nil, []any{3.5}, "  ")
	assert.ErrorContains(t, err, "not a generic JSON value")
	b, err := minijson.AppendIndent(nil, map[string]any{"a": []any(nil), "b": map[string]any(nil), "n": minijson.Number("")}, "")
	require.NoError(t, err)
	assert.Equal(t, "{\n\"a\": null,\n\"b\": null,\n\"n\": 0\n}", string(b), "nil lists and maps are null, as encoding/json writes them")
}
