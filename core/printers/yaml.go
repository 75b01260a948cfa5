package printers

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reconcilelab/rlab/core/minijson"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file writes YAML the way kubectl does. kubectl's YAML printer marshals
// an object to JSON and hands the JSON to sigs.k8s.io/yaml, whose JSONToYAML
// decodes it with (a vendored copy of) gopkg.in/yaml.v2 into generic maps and
// encodes those again. So every byte of `kubectl get -o yaml` comes from
// yaml.v2's encoder and its port of libyaml's emitter, with their defaults:
// two-space indentation, sequences inside mappings not indented, map keys in
// yaml.v2's "natural" order, and long strings folded at 80 columns.
//
// What follows is that pipeline cut down to the values JSON can hold (maps
// with string keys, arrays, strings, numbers, booleans and null), written as a
// small recursive emitter instead of libyaml's event queue. The names of the
// emitter's fields and steps are libyaml's, so each piece can be checked
// against its original (emitterc.go and encode.go in gopkg.in/yaml.v2
// v2.4.0; yaml_resolve.go has the parts from resolve.go and sorter.go). The
// tests compare the output with yaml.v2's, byte for byte, on generated
// documents.

// yamlBestIndent and yamlBestWidth are the emitter's defaults, which neither
// yaml.v2 nor sigs.k8s.io/yaml changes.
const (
	yamlBestIndent = 2
	yamlBestWidth  = 80
)

// scalarStyle is how a scalar is written.
type scalarStyle int

const (
	stylePlain scalarStyle = iota
	styleSingleQuoted
	styleDoubleQuoted
	styleLiteral
)

// scalarAnalysis is what libyaml's yaml_emitter_analyze_scalar learns about a
// scalar before it picks a style.
type scalarAnalysis struct {
	multiline           bool
	blockPlainAllowed   bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

// yamlEmitter is the part of libyaml's yaml_emitter_t that block-style output
// needs. Invariants: column counts the characters (not bytes) written since
// the last line break; indent is -1 before the root node and otherwise the
// indentation of the collection or scalar being written; indents holds the
// enclosing values of indent.
type yamlEmitter struct {
	out     []byte
	column  int
	indent  int
	indents []int

	// whitespace: the last character written was whitespace (or nothing has
	// been written on the line), so an indicator needs no space before it.
	whitespace bool
	// indention: only indentation has been written on the current line.
	indention bool

	// The context of the node being written, as yaml_emitter_emit_node sets it.
	mappingContext   bool
	simpleKeyContext bool
}

// encodeYAML writes v, a value decoded from JSON, as JSONToYAML does: the
// value yaml.v2 reads from the JSON, written as one YAML document.
func encodeYAML(v any) []byte {
	e := &yamlEmitter{indent: -1, whitespace: true, indention: true}
	e.emitNode(asReadByYAML(v), false, false)
	// DOCUMENT-END (implicit): end the last line.
	e.writeIndent()
	return e.out
}

// emitNode is yaml_emitter_emit_node: it records the context and writes one
// node. (The root and sequence contexts of libyaml only matter for
// open-ended scalars and anchors, which this output never has.)
func (e *yamlEmitter) emitNode(v any, mapping, simpleKey bool) {
	e.mappingContext = mapping
	e.simpleKeyContext = simpleKey
	switch v := v.(type) {
	case map[string]any:
		e.emitMapping(v)
	case []any:
		e.emitSequence(v)
	default:
		text, style := scalarOf(v)
		e.emitScalar(text, style)
	}
}

// scalarOf returns the text of a scalar and the style yaml.v2's encoder asks
// for: strings as encoder.stringv chooses, everything else plain.
func scalarOf(v any) (string, scalarStyle) {
	switch v := v.(type) {
	case nil:
		return "null", stylePlain
	case bool:
		if v {
			return "true", stylePlain
		}
		return "false", stylePlain
	case minijson.Number:
		return yamlNumber(string(v))
	case string:
		switch {
		case strings.Contains(v, "\n"):
			return v, styleLiteral
		case resolvesToString(v) && !isBase60Float(v):
			return v, stylePlain
		default:
			return v, styleDoubleQuoted
		}
	}
	// The manifests are decoded from JSON, so nothing else can occur.
	panic("printers: unexpected value in a decoded manifest")
}

// yamlNumber writes a JSON number as yaml.v2 does after decoding it: the
// decoder resolves the literal to an int, a uint or a float, and the encoder
// formats that value again (so 1.0 becomes 1 and 1e3 becomes 1000).
func yamlNumber(lit string) (string, scalarStyle) {
	if i, err := strconv.ParseInt(lit, 0, 64); err == nil {
		return strconv.FormatInt(i, 10), stylePlain
	}
	if u, err := strconv.ParseUint(lit, 0, 64); err == nil {
		return strconv.FormatUint(u, 10), stylePlain
	}
	if isYAMLStyleFloat(lit) {
		if f, err := strconv.ParseFloat(lit, 64); err == nil {
			switch s := strconv.FormatFloat(f, 'g', -1, 64); s {
			case "+Inf":
				return ".inf", stylePlain
			case "-Inf":
				return "-.inf", stylePlain
			default:
				return s, stylePlain
			}
		}
	}
	// A literal out of float64's range stays a string in yaml.v2's decoder.
	return scalarOf(lit)
}

// emitMapping writes a mapping: an empty one in flow style ("{}"), as
// yaml_emitter_check_empty_mapping makes libyaml do, and any other in block
// style with its keys in yaml.v2's order.
func (e *yamlEmitter) emitMapping(m map[string]any) {
	if len(m) == 0 {
		e.emitEmptyFlow("{", "}")
		return
	}
	// Sorting the keys bytewise first, and then in yaml.v2's order with
	// the one shared sort (core/sorting), costs a second pass over a few
	// keys and saves main.wasm a copy of the sorting code.
	keys := slices.Sorted(maps.Keys(m))
	sorting.Func(keys, compareYAMLKeys)
	e.increaseIndent(false, false)
	for _, k := range keys {
		// yaml_emitter_emit_block_mapping_key
		e.writeIndent()
		keyAnalysis := analyzeScalar(k)
		if isSimpleKey(k, keyAnalysis) {
			e.emitNode(k, true, true)
			// yaml_emitter_emit_block_mapping_value, simple
			e.writeIndicator(":", false, false, false)
		} else {
			e.writeIndicator("?", true, false, true)
			e.emitNode(k, true, false)
			// yaml_emitter_emit_block_mapping_value, not simple
			e.writeIndent()
			e.writeIndicator(":", true, false, true)
		}
		e.emitNode(m[k], true, false)
	}
	e.popIndent()
}

// emitSequence writes a sequence: an empty one as "[]", any other in block
// style. A block sequence that is a mapping's value is not indented
// further than its key ("indentless"), as libyaml does.
func (e *yamlEmitter) emitSequence(s []any) {
	if len(s) == 0 {
		e.emitEmptyFlow("[", "]")
		return
	}
	e.increaseIndent(false, e.mappingContext && !e.indention)
	for _, item := range s {
		e.writeIndent()
		e.writeIndicator("-", true, false, true)
		e.emitNode(item, false, false)
	}
	e.popIndent()
}

// emitEmptyFlow writes an empty flow collection, as
// yaml_emitter_emit_flow_sequence_item and _flow_mapping_key do when the end
// event follows the start at once.
func (e *yamlEmitter) emitEmptyFlow(open, closing string) {
	e.writeIndicator(open, true, true, false)
	e.increaseIndent(true, false)
	e.popIndent()
	e.writeIndicator(closing, false, false, false)
}

// isSimpleKey is yaml_emitter_check_simple_key for a scalar key: one line, at
// most 128 bytes.
func isSimpleKey(key string, a scalarAnalysis) bool {
	return !a.multiline && len(key) <= 128
}

// emitScalar is yaml_emitter_emit_scalar: choose the style, then write the
// scalar one indentation step deeper than its parent.
func (e *yamlEmitter) emitScalar(text string, requested scalarStyle) {
	a := analyzeScalar(text)
	style := e.selectScalarStyle(text, requested, a)
	e.increaseIndent(true, false)
	switch style {
	case stylePlain:
		e.writePlainScalar(text, !e.simpleKeyContext)
	case styleSingleQuoted:
		e.writeSingleQuotedScalar(text, !e.simpleKeyContext)
	case styleDoubleQuoted:
		e.writeDoubleQuotedScalar(text, !e.simpleKeyContext)
	case styleLiteral:
		e.writeLiteralScalar(text)
	}
	e.popIndent()
}

// selectScalarStyle is yaml_emitter_select_scalar_style for block context
// (this emitter never writes a scalar inside a flow collection).
func (e *yamlEmitter) selectScalarStyle(text string, style scalarStyle, a scalarAnalysis) scalarStyle {
	if e.simpleKeyContext && a.multiline {
		style = styleDoubleQuoted
	}
	if style == stylePlain {
		if !a.blockPlainAllowed {
			style = styleSingleQuoted
		}
		if text == "" && e.simpleKeyContext {
			style = styleSingleQuoted
		}
	}
	if style == styleSingleQuoted && !a.singleQuotedAllowed {
		style = styleDoubleQuoted
	}
	if style == styleLiteral && (!a.blockAllowed || e.simpleKeyContext) {
		style = styleDoubleQuoted
	}
	return style
}

// increaseIndent is yaml_emitter_increase_indent.
func (e *yamlEmitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent < 0 && flow:
		e.indent = yamlBestIndent
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += yamlBestIndent
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

// put writes one ASCII byte.
func (e *yamlEmitter) put(b byte) {
	e.out = append(e.out, b)
	e.column++
}

// putBreak writes a line break.
func (e *yamlEmitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
}

// write copies the character at s[i] and returns the index after it; the
// column advances by one character, whatever its width in bytes.
func (e *yamlEmitter) write(s string, i int) int {
	w := utf8Width(s[i])
	e.out = append(e.out, s[i:i+w]...)
	e.column++
	return i + w
}

// writeBreak copies the line break at s[i]: "\n" as the emitter's own break,
// the others (CR, NEL, LS, PS) as they are.
func (e *yamlEmitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return i + 1
	}
	i = e.write(s, i)
	e.column = 0
	return i
}

// writeIndent is yaml_emitter_write_indent: start a new line unless only
// indentation has been written on this one, then indent.
func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
	e.indention = true
}

// writeIndicator is yaml_emitter_write_indicator.
func (e *yamlEmitter) writeIndicator(indicator string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, indicator...)
	e.column += len(indicator)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

// writePlainScalar is yaml_emitter_write_plain_scalar: a long line is folded
// at a single space once it has passed the width.
func (e *yamlEmitter) writePlainScalar(s string, allowBreaks bool) {
	if !e.whitespace {
		e.put(' ')
	}
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > yamlBestWidth && !isSpaceAt(s, i+1) {
				e.writeIndent()
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		case isBreakAt(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			i = e.write(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.whitespace = false
	e.indention = false
}

// writeSingleQuotedScalar is yaml_emitter_write_single_quoted_scalar.
func (e *yamlEmitter) writeSingleQuotedScalar(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > yamlBestWidth && i > 0 && i < len(s)-1 && !isSpaceAt(s, i+1) {
				e.writeIndent()
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		case isBreakAt(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
		default:
			if breaks {
				e.writeIndent()
			}
			if s[i] == '\'' {
				e.put('\'')
			}
			i = e.write(s, i)
			e.indention = false
			spaces, breaks = false, false
		}
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeDoubleQuotedScalar is yaml_emitter_write_double_quoted_scalar:
// unprintable characters, breaks, quotes and backslashes are escaped; a long
// line is folded at a space.
func (e *yamlEmitter) writeDoubleQuotedScalar(s string, allowBreaks bool) {
	spaces := false
	e.writeIndicator(`"`, true, false, false)
	bom := strings.HasPrefix(s, "\xEF\xBB\xBF")
	for i := 0; i < len(s); {
		switch {
		// libyaml's is_bom looks at the start of the value, not at i: a value
		// that starts with a byte order mark has every character escaped.
		case !isPrintableAt(s, i) || bom || isBreakAt(s, i) || s[i] == '"' || s[i] == '\\':
			w := utf8Width(s[i])
			r := decodeRune(s[i : i+w])
			i += w
			e.put('\\')
			e.writeEscape(r)
			spaces = false
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > yamlBestWidth && i > 0 && i < len(s)-1 {
				e.writeIndent()
				if isSpaceAt(s, i+1) {
					e.put('\\')
				}
				i++
			} else {
				i = e.write(s, i)
			}
			spaces = true
		default:
			i = e.write(s, i)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace = false
	e.indention = false
}

// writeEscape writes the escape for r after its backslash.
func (e *yamlEmitter) writeEscape(r rune) {
	switch r {
	case 0x00:
		e.put('0')
	case 0x07:
		e.put('a')
	case 0x08:
		e.put('b')
	case 0x09:
		e.put('t')
	case 0x0A:
		e.put('n')
	case 0x0B:
		e.put('v')
	case 0x0C:
		e.put('f')
	case 0x0D:
		e.put('r')
	case 0x1B:
		e.put('e')
	case 0x22:
		e.put('"')
	case 0x5C:
		e.put('\\')
	case 0x85:
		e.put('N')
	case 0xA0:
		e.put('_')
	case 0x2028:
		e.put('L')
	case 0x2029:
		e.put('P')
	default:
		digits := 8
		switch {
		case r <= 0xFF:
			e.put('x')
			digits = 2
		case r <= 0xFFFF:
			e.put('u')
			digits = 4
		default:
			e.put('U')
		}
		for k := (digits - 1) * 4; k >= 0; k -= 4 {
			d := byte(r>>uint(k)) & 0x0F
			if d < 10 {
				e.put('0' + d)
			} else {
				e.put('A' + d - 10)
			}
		}
	}
}

// writeLiteralScalar is yaml_emitter_write_literal_scalar with its block
// scalar hints: an indentation indicator when the text starts with a space
// or a break, and a chomping indicator ("-" without a final break, "+" with
// more than one).
func (e *yamlEmitter) writeLiteralScalar(s string) {
	e.writeIndicator("|", true, false, false)
	if s[0] == ' ' || isBreakAt(s, 0) {
		e.writeIndicator(string(rune('0'+yamlBestIndent)), false, false, false)
	}
	if chomp := chompingHint(s); chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
	e.putBreak()
	e.indention = true
	e.whitespace = true
	breaks := true
	for i := 0; i < len(s); {
		if isBreakAt(s, i) {
			i = e.writeBreak(s, i)
			e.indention = true
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		i = e.write(s, i)
		e.indention = false
		breaks = false
	}
}

// chompingHint is the chomping part of yaml_emitter_write_block_scalar_hints.
func chompingHint(s string) string {
	i := lastCharStart(s, len(s))
	if !isBreakAt(s, i) {
		return "-"
	}
	if i == 0 {
		return "+"
	}
	if isBreakAt(s, lastCharStart(s, i)) {
		return "+"
	}
	return ""
}

// lastCharStart returns the index where the character ending before end
// starts.
func lastCharStart(s string, end int) int {
	i := end - 1
	for s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// analyzeScalar is yaml_emitter_analyze_scalar.
func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{blockPlainAllowed: true, singleQuotedAllowed: true}
	}
	var (
		blockIndicators, lineBreaks, specialCharacters bool
		leadingSpace, leadingBreak                     bool
		trailingSpace, trailingBreak                   bool
		breakSpace, spaceBreak                         bool
		previousSpace, previousBreak                   bool
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	precededByWhitespace := true
	for i, w := 0, 0; i < len(s); i += w {
		w = utf8Width(s[i])
		followedByWhitespace := i+w >= len(s) || isBlankAt(s, i+w)
		if i == 0 {
			switch s[i] {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch s[i] {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		// The emitter is set to Unicode, so only unprintable characters are
		// special.
		if !isPrintableAt(s, i) {
			specialCharacters = true
		}
		switch {
		case s[i] == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreakAt(s, i):
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankAt(s, i) || isBreakAt(s, i) || s[i] == 0 // is_blankz
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlainAllowed = false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
	}
	if spaceBreak || specialCharacters {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
		a.blockAllowed = false
	}
	if lineBreaks || blockIndicators {
		a.blockPlainAllowed = false
	}
	return a
}

// The character classes of libyaml (yamlprivateh.go), on valid UTF-8.

func utf8Width(b byte) int {
	switch {
	case b&0x80 == 0x00:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	case b&0xF8 == 0xF0:
		return 4
	}
	return 1 // not reached on valid UTF-8
}

func decodeRune(b string) rune {
	var r rune
	switch len(b) {
	case 1:
		return rune(b[0] & 0x7F)
	case 2:
		r = rune(b[0] & 0x1F)
	case 3:
		r = rune(b[0] & 0x0F)
	default:
		r = rune(b[0] & 0x07)
	}
	for k := 1; k < len(b); k++ {
		r = r<<6 + rune(b[k]&0x3F)
	}
	return r
}

// isPrintableAt is libyaml's is_printable: LF, printable ASCII, and the BMP
// from U+00A0 except surrogates, U+FEFF, U+FFFE and U+FFFF. Characters
// outside the BMP (emoji, say) count as unprintable and are escaped.
func isPrintableAt(s string, i int) bool {
	b := s[i]
	at := func(k int) byte {
		if i+k < len(s) {
			return s[i+k]
		}
		return 0
	}
	return b == 0x0A ||
		b >= 0x20 && b <= 0x7E ||
		b == 0xC2 && at(1) >= 0xA0 ||
		b > 0xC2 && b < 0xED ||
		b == 0xED && at(1) < 0xA0 ||
		b == 0xEE ||
		b == 0xEF && !(at(1) == 0xBB && at(2) == 0xBF) && !(at(1) == 0xBF && (at(2) == 0xBE || at(2) == 0xBF))
}

// isBreakAt is libyaml's is_break: CR, LF, NEL, LS and PS.
func isBreakAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return i+1 < len(s) && s[i+1] == 0x85
	case 0xE2:
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
	}
	return false
}

func isSpaceAt(s string, i int) bool { return i < len(s) && s[i] == ' ' }

func isBlankAt(s string, i int) bool { return i < len(s) && (s[i] == ' ' || s[i] == '\t') }
