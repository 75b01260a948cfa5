package minijson_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/internal/jsontest"
)

// everything has a field of every kind Marshal writes, plain and omitempty,
// for the comparison with encoding/json.
type everything struct {
	S        string            `json:"s"`
	OptS     string            `json:"optS,omitempty"`
	I        int               `json:"i"`
	OptI     int32             `json:"optI,omitempty"`
	I8       int8              `json:"i8"`
	U        uint64            `json:"u"`
	OptU     uint16            `json:"optU,omitempty"`
	B        bool              `json:"b"`
	OptB     bool              `json:"optB,omitempty"`
	PB       *bool             `json:"pb,omitempty"`
	SS       []string          `json:"ss"`
	OptSS    []string          `json:"optSS,omitempty"`
	M        map[string]string `json:"m"`
	OptM     map[string]string `json:"optM,omitempty"`
	Obj      Inner             `json:"obj"`
	OptObj   *Inner            `json:"optObj,omitempty"`
	NullObj  *Inner            `json:"nullObj"`
	L        []Inner           `json:"l"`
	OptL     []Inner           `json:"optL,omitempty"`
	Stamp    stamp             `json:"stamp"`
	Untagged string
	Skipped  string `json:"-"`
	Inner
	// Name is also Inner's name: the shallower field wins.
	Name string `json:"name"`
	// Outer's and Twin's Shared are both untagged at one depth: neither is
	// written.
	Outer
	Twin
}

type Outer struct {
	Shared string
	Deep   Inner `json:"deep"`
}

type Twin struct {
	Shared string
	Note   string
}

type Inner struct {
	Name string `json:"name"`
	N    int    `json:"n,omitempty"`
}

// stamp writes itself, as api.Time does.
type stamp struct {
	Seconds int64
}

func (s stamp) AppendJSON(b []byte) []byte {
	if s.Seconds == 0 {
		return append(b, "null"...)
	}
	return strconv.AppendQuote(b, "t+"+strconv.FormatInt(s.Seconds, 10))
}

func (s stamp) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil), nil }

func TestMarshalWritesWhatEncodingJSONWrites(t *testing.T) {
	jsontest.Check[everything](t)
}

func TestMarshalPromotesEmbeddedFieldsAsEncodingJSONDoes(t *testing.T) {
	v := everything{Name: "outer", Outer: Outer{Shared: "x"}, Twin: Twin{Shared: "y", Note: "n"}}
	v.Inner.Name = "inner"
	want, err := json.Marshal(v)
	require.NoError(t, err)
	got, err := minijson.Marshal(v)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	assert.Contains(t, string(got), `"name":"outer"`)
	assert.NotContains(t, string(got), `"Shared"`)
}

// decodable has a field of every kind Decode reads, but RawMessage, which
// encoding/json does not know.
type decodable struct {
	S   string `json:"s"`
	N   int    `json:"n,omitempty"`
	I16 int16  `json:"i16"`
	U   uint64 `json:"u"`
	U8  uint8  `json:"u8"`
	B   bool   `json:"b"`
	P   *int   `json:"p"`
	Sub Inner  `json:"sub"`
	PS  *Inner `json:"ps,omitempty"`
	Inner
}

func TestDecodeReadsWhatEncodingJSONReads(t *testing.T) {
	jsontest.CheckDecoder[decodable](t)
}

// withFloat has a field of a kind minijson does not write.
type withFloat struct {
	Name  string  `json:"name"`
	Ratio float64 `json:"ratio"`
}

func TestMarshalRefusesWhatItCannotWriteAsEncodingJSONDoes(t *testing.T) {
	_, err := minijson.Marshal(withFloat{})
	assert.ErrorContains(t, err, "cannot encode a float64")
	_, err = minijson.Marshal(struct{ B []byte }{B: []byte("x")})
	assert.ErrorContains(t, err, "base64")
	_, err = minijson.Marshal(map[int]string{})
	assert.ErrorContains(t, err, "the only maps it writes are map[string]string")
	b, err := minijson.Marshal(struct {
		R minijson.RawMessage `json:"r"`
	}{R: minijson.RawMessage(`{"kept":[1,2]}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"r":{"kept":[1,2]}}`, string(b), "a RawMessage is written as it is")
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

// args is what the decoding tests read: a field of every kind Decode
// reads.
type args struct {
	S   string              `json:"s"`
	N   int                 `json:"n"`
	I64 int64               `json:"i64"`
	U   uint64              `json:"u"`
	U8  uint8               `json:"u8"`
	B   bool                `json:"b"`
	P   *int                `json:"p"`
	Sub struct{ S string }  `json:"sub"`
	Raw minijson.RawMessage `json:"raw"`
}

// stdArgs is args as encoding/json reads it (a RawMessage of its own).
type stdArgs struct {
	S   string             `json:"s"`
	N   int                `json:"n"`
	I64 int64              `json:"i64"`
	U   uint64             `json:"u"`
	U8  uint8              `json:"u8"`
	B   bool               `json:"b"`
	P   *int               `json:"p"`
	Sub struct{ S string } `json:"sub"`
	SS  []string           `json:"ss"`
	Raw json.RawMessage    `json:"raw"`
}

// decode reads data as the bridge reads a request.
func decode(data []byte) (args, error) {
	var a args
	err := minijson.Decode(data, &a)
	return a, err
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
	`{"s":"a"}{}`, `{"u8":255}`, `{"u8":256}`,
	`{"sub":{"S":"x"}}`, `{"s" "a"}`, `{"s":"a",}`, `{,}`, ``, `{"s":"a"`, `"s"`, `{"raw":-}`, `{"raw":1.}`, `{"raw":1e}`,
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
		assert.Equal(t, want.U8, got.U8)
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
		{`{"u8":256}`, "does not fit an unsigned 8-bit integer"},
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
		got, err := minijson.Parse(data)
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
