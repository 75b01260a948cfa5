package printers

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// This file holds what the YAML emitter must know about yaml.v2's decoder:
// what JSON text yaml.v2 reads (the NEL folding below), the order yaml.v2
// sorts map keys in, and which plain scalars it would read back as
// something other than a string, so that they are quoted.

// asReadByYAML returns v as yaml.v2 reads it back from the JSON that
// encoding/json writes for it. The two agree on everything but one
// character: encoding/json leaves NEL (U+0085) unescaped, and YAML reads a
// raw NEL inside a double-quoted string as a line break, which it folds
// with the spaces around it: a run of spaces and n NELs becomes one space
// when n is 1, and n-1 newlines otherwise. So kubectl prints "a\u0085b" as
// "a b". Keys are folded too; if two keys fold into one, the later in
// encoding/json's order wins, as in yaml.v2's decoder.
func asReadByYAML(v any) any {
	switch v := v.(type) {
	case string:
		return foldNEL(v)
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			out[i] = asReadByYAML(item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out[foldNEL(k)] = asReadByYAML(v[k])
		}
		return out
	}
	return v
}

// foldNEL folds the runs of spaces and NELs that hold a NEL, as YAML's
// double-quoted scalars fold line breaks.
func foldNEL(s string) string {
	const nel = "\u0085"
	if !strings.Contains(s, nel) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != ' ' && !strings.HasPrefix(s[i:], nel) {
			b.WriteByte(s[i])
			i++
			continue
		}
		start, nels := i, 0
		for i < len(s) {
			if s[i] == ' ' {
				i++
			} else if strings.HasPrefix(s[i:], nel) {
				i += len(nel)
				nels++
			} else {
				break
			}
		}
		switch nels {
		case 0:
			b.WriteString(s[start:i])
		case 1:
			b.WriteByte(' ')
		default:
			b.WriteString(strings.Repeat("\n", nels-1))
		}
	}
	return b.String()
}

// compareYAMLKeys orders map keys as yaml.v2's keyList.Less does for
// strings: rune by rune, letters after other characters, and runs of digits
// compared as numbers, so "a2" comes before "a10" and "a-b" before "ab".
func compareYAMLKeys(a, b string) int {
	switch {
	case yamlKeyLess(a, b):
		return -1
	case yamlKeyLess(b, a):
		return 1
	}
	return strings.Compare(a, b)
}

func yamlKeyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al := unicode.IsLetter(ar[i])
		bl := unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an = 1
					bn = 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// resolvesToString reports whether yaml.v2 would read s, written plain, back
// as a string (its resolve with no tag). Booleans (yes, on, y, …), nulls,
// numbers in every notation, and timestamps would come back as something
// else, so such strings must be quoted.
func resolvesToString(s string) bool {
	if s == "" {
		return false // null
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return !isYAMLSpecialWord(s) && !resolvesToNumberOrTime(s)
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return !isYAMLSpecialWord(s)
	case c == '.':
		if isYAMLSpecialWord(s) {
			return false
		}
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	}
	return true
}

// yamlSpecialWords are the plain scalars yaml.v2's resolve table maps to a
// boolean, null or special float, each between spaces.
const yamlSpecialWords = " y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF" +
	" ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF "

func isYAMLSpecialWord(s string) bool {
	return !strings.Contains(s, " ") && strings.Contains(yamlSpecialWords, " "+s+" ")
}

// resolvesToNumberOrTime is the digit-or-sign branch of yaml.v2's resolve.
func resolvesToNumberOrTime(s string) bool {
	if isYAMLTimestamp(s) {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if isYAMLStyleFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return true
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return true
		}
	}
	return false
}

// isYAMLTimestamp is yaml.v2's parseTimestamp, which is why kubectl quotes
// every timestamp: four digits and a dash, then a match for one of the
// layouts it hands to time.Parse,
//
//	2006-1-2T15:4:5.999999999Z07:00    (or a lower-case t)
//	2006-1-2 15:4:5.999999999
//	2006-1-2
//
// checked here by hand, with time.Parse's rules for those layouts: a year of
// exactly four digits; any number of spaces for the one in the layout; a month, day, hour, minute and second of one or two
// digits, in range (the day for its month, leap years included); an
// optional fraction of any number of digits after '.' or ','; and a zone of
// Z or ±hh:mm with hh ≤ 24 and mm ≤ 60. time.Parse itself would cost
// main.wasm 7.5 KB of its brotli size for this one question; the tests
// compare the two on generated strings.
func isYAMLTimestamp(s string) bool {
	p := timestampParser{s: s}
	year, ok := p.digits(4, 4)
	if !ok || !p.byte('-') {
		return false
	}
	month, ok := p.number(1, 12)
	if !ok || !p.byte('-') {
		return false
	}
	day, ok := p.digits(1, 2)
	if !ok || day < 1 || day > daysIn(month, year) {
		return false
	}
	if p.done() {
		return true
	}
	zoned := p.byte('T') || p.byte('t')
	if !zoned {
		// A space in a layout matches a run of spaces in the value.
		if !p.byte(' ') {
			return false
		}
		for p.byte(' ') {
		}
	}
	if _, ok := p.number(0, 23); !ok || !p.byte(':') {
		return false
	}
	if _, ok := p.number(0, 59); !ok || !p.byte(':') {
		return false
	}
	if _, ok := p.number(0, 59); !ok {
		return false
	}
	if (p.byte('.') || p.byte(',')) && !p.someDigits() {
		return false
	}
	if zoned && !p.byte('Z') {
		if !p.byte('+') && !p.byte('-') {
			return false
		}
		if h, ok := p.digits(2, 2); !ok || h > 24 || !p.byte(':') {
			return false
		}
		if m, ok := p.digits(2, 2); !ok || m > 60 {
			return false
		}
	}
	return p.done()
}

// timestampParser reads a string from the front for isYAMLTimestamp.
type timestampParser struct {
	s string
	i int
}

func (p *timestampParser) done() bool { return p.i == len(p.s) }

// byte reads c if it comes next.
func (p *timestampParser) byte(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// digits reads from least to most digits, as many as there are, as a
// number.
func (p *timestampParser) digits(least, most int) (int, bool) {
	n, start := 0, p.i
	for p.i < len(p.s) && p.i-start < most && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		n = n*10 + int(p.s[p.i]-'0')
		p.i++
	}
	return n, p.i-start >= least
}

// number reads one or two digits whose value is from lo to hi.
func (p *timestampParser) number(lo, hi int) (int, bool) {
	n, ok := p.digits(1, 2)
	return n, ok && n >= lo && n <= hi
}

// someDigits reads one digit or more.
func (p *timestampParser) someDigits() bool {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// daysIn is the number of days of month in year, in the Gregorian calendar.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// isYAMLStyleFloat matches yaml.v2's
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ without a regexp.
func isYAMLStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isBase60Float matches yaml.v2's
// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$: YAML 1.1's sexagesimal
// numbers ("1:30"), which yaml.v2 quotes for the sake of older parsers.
func isBase60Float(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return false
	}
	i++
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
		i++
	}
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		n := 0
		for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
			n++
		}
		if n == 0 || n > 2 || n == 2 && s[i] > '5' {
			return false
		}
		i += n
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			i++
		}
	}
	return i == len(s)
}
