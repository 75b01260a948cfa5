package sim

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// A step's sentence is read by a learner looking at that step, and by nobody
// else: most steps of a large run are never looked at. So a component does
// not write its sentence when the step runs. It says which Form the sentence
// takes and the facts that fill the form's holes, and the sentence is written
// out only when asked for (Sentence.String, Sentence.Render, a trace line).
// The facts are strings that already exist (an object's name, a queue key, a
// constant word) and numbers, so saying a sentence costs no allocation.
//
// The trace hash folds in the form and the facts (hashSentence), never the
// written sentence: the same facts give the same hash, and a change to any
// fact changes it.

// Sentence capacity: how many string, number and choice facts a sentence
// holds inline. A form has at most this many holes of each kind; two forms
// joined by Then share them (see Sentence.Then). A choice is a small number
// (which of a few words), so it takes a byte rather than a number's eight.
const (
	sentenceStrings = 4
	sentenceNumbers = 3
	sentenceChoices = 8
)

// Form is the wording of one kind of sentence, with holes where its facts
// go. Forms are package variables, made of nothing but their words:
//
//	var formAdded = &sim.Form{Text: "pod/%s added: enqueued %s (%{key|keys} waiting)"}
//
// The holes are:
//
//	%s       a string
//	%q       a string, quoted as Go quotes it: "ping"
//	%d       a number
//	%u       a number read as unsigned (a resourceVersion)
//	%D       a number of nanoseconds, as Go writes a duration: 1m30s
//	%T       a number of nanoseconds, as the trace writes a time: 2.004s
//	%{a|b}   a number and its noun, a when it is 1 and b otherwise: 1 key, 3 keys
//	%[a|b|c] one of the words, chosen by a number from 0 to 255: 1 gives b
//	%%       a percent sign
//
// Strings fill the string holes in order, numbers the number and choice
// holes in order.
//
// A form is read where it is used, never parsed ahead of time. A form made
// of constants is then data the program starts with, with no code to run to
// make it: for the several hundred forms of a world, that is what keeps the
// page's download within its budget. Check says whether a form is well
// made; a test checks every form of core/.
type Form struct {
	// Text is the form's words and holes.
	Text string
}

// A hole's kind, as scan reads it, beside the verbs of the table above.
const (
	endOfForm   = 0
	literalOnly = '%' // "%%": no hole; the literal text goes on
)

// scan reads text from i: the literal text up to the next hole, the hole's
// verb (endOfForm after the last), its words for a count or a choice
// ("key|keys"), and where the text after the hole starts. A "%%" ends the
// literal text with its first "%" and has verb literalOnly.
func scan(text string, i int) (lit string, verb byte, words string, next int) {
	j := strings.IndexByte(text[i:], '%')
	if j < 0 || i+j+1 >= len(text) {
		return text[i:], endOfForm, "", len(text)
	}
	j += i
	switch verb = text[j+1]; verb {
	case literalOnly:
		return text[i : j+1], literalOnly, "", j + 2
	case '{', '[':
		// '}' is '{'+2 and ']' is '['+2.
		if k := strings.IndexByte(text[j+2:], verb+2); k >= 0 {
			return text[i:j], verb, text[j+2 : j+2+k], j + 3 + k
		}
	}
	return text[i:j], verb, "", j + 2
}

// facts counts the form's string, number and choice holes, and says which of
// the numbers With is given are choices (bit i for the i-th).
func (f *Form) facts() (strs, nums, choices int, choice uint16) {
	for i := 0; ; {
		var verb byte
		_, verb, _, i = scan(f.Text, i)
		switch verb {
		case endOfForm:
			return strs, nums, choices, choice
		case 's', 'q':
			strs++
		case '[':
			choice |= 1 << (nums + choices)
			choices++
		case literalOnly:
		default:
			nums++
		}
	}
}

// Facts returns how many strings, and how many numbers (choices included),
// a sentence of the form takes: what Say and then With must be given.
func (f *Form) Facts() (strings, numbers int) {
	s, n, c, _ := f.facts()
	return s, n + c
}

// Check says what is wrong with a form, if anything: a lone % at its end,
// a hole it does not know, a count or choice not closed, a count that does
// not name two nouns, or more holes than a sentence holds.
func (f *Form) Check() error {
	text := f.Text
	bad := func(why string) error { return errors.New("form " + quote(text) + ": " + why) }
	if strings.HasSuffix(strings.ReplaceAll(text, "%%", ""), "%") {
		return bad("it ends with a lone %")
	}
	for i := 0; ; {
		var verb byte
		var words string
		_, verb, words, i = scan(text, i)
		switch verb {
		case endOfForm:
			if s, n, c, _ := f.facts(); s > sentenceStrings || n > sentenceNumbers || c > sentenceChoices {
				return bad("a sentence holds at most 4 strings, 3 numbers and 8 choices: split it in two joined by Then")
			}
			return nil
		case 's', 'q', 'd', 'u', 'D', 'T', literalOnly:
		case '{', '[':
			if text[i-1] != verb+2 {
				return bad("a %{ or %[ is not closed")
			}
			if verb == '{' && strings.Count(words, "|") != 1 {
				return bad("a count %{one|many} names two nouns")
			}
		default:
			return bad("an unknown hole")
		}
	}
}

// textForm is the form of a sentence written out already (Text).
var textForm = &Form{Text: "%s"}

// Sentence is what a step says it did, for a learner: a Form and the facts
// that fill its holes, held inline, optionally followed by a second form
// with its own facts (Then). The zero Sentence says nothing.
//
// Making one allocates nothing, and copying one copies no text; the
// sentence is written out only when asked for. A Sentence refers to the
// strings it was given, which must not change afterwards (Go strings never
// do). Every fact beyond those its forms take is zero.
type Sentence struct {
	// Sentences are not compared with ==: two that read the same may hold
	// different forms, and the functions that compare them would only make
	// the program bigger.
	_ [0]func()

	// form is the sentence's wording, nil for the zero Sentence; tail, when
	// not nil, continues it, with the facts after form's.
	form, tail *Form
	choices    [sentenceChoices]uint8
	strs       [sentenceStrings]string
	nums       [sentenceNumbers]int64
}

// Say makes a sentence of form f with its string facts, in the order of
// f's string holes. Its number facts, if it has number holes, follow with
// With. (A test checks that every sentence of core/ is given what its form
// takes: checking it here would read the form at every step.)
func Say(f *Form, strs ...string) Sentence {
	s := Sentence{form: f}
	if copy(s.strs[:], strs) < len(strs) {
		return misused(f, "strings")
	}
	return s
}

// With sets the number and choice facts of a sentence Say just made, in the
// order of its form's number and choice holes.
func (s Sentence) With(nums ...int64) Sentence {
	if s.form == nil || s.tail != nil {
		return misused(textForm, "numbers")
	}
	_, holes, choices, choice := s.form.facts()
	if holes+choices != len(nums) || holes > sentenceNumbers || choices > sentenceChoices {
		return misused(s.form, "numbers")
	}
	n, c := 0, 0
	for i, v := range nums {
		if choice&(1<<i) == 0 {
			s.nums[n] = v
			n++
			continue
		}
		if v < 0 || v > 255 {
			return misused(s.form, "choice "+strconv.FormatInt(v, 10))
		}
		s.choices[c] = uint8(v)
		c++
	}
	return s
}

// Text is a sentence with no facts to fill in: a constant ("the queue is
// empty: idle until a key arrives"), or one written out already. A constant
// costs nothing; joining strings to make one costs what it did before
// sentences were lazy, so Say is for everything else. After Then a Text
// takes a string fact's room in the sentence; a form without holes takes
// none.
func Text(text string) Sentence {
	s := Sentence{form: textForm}
	s.strs[0] = text
	return s
}

// misused is the sentence of a form given the wrong facts: a bug, which
// shows in the trace rather than stopping the world.
func misused(f *Form, what string) Sentence {
	return Text("%!(form " + quote(f.Text) + " got the wrong " + what + ")")
}

// Then returns s followed by next, as one sentence: "took default/web" then
// "; sync of default/web done". When the two fit in one sentence's room
// (one form each, and their facts together within its capacity) the result
// is as lazy as its parts; otherwise what does not fit is written out first.
func (s Sentence) Then(next Sentence) Sentence {
	switch {
	case next.form == nil:
		return s
	case s.form == nil:
		return next
	case s.isText() && next.isText():
		// Both are written out already: one text, hashed as the two
		// together were before sentences were lazy.
		return Text(s.strs[0] + next.strs[0])
	}
	if joined, ok := join(s, next); ok {
		return joined
	}
	if joined, ok := join(Text(s.String()), next); ok {
		return joined
	}
	return Text(s.String() + next.String())
}

// join puts b after a as a's tail, when both are one form and their facts
// fit.
func join(a, b Sentence) (Sentence, bool) {
	if a.tail != nil || b.tail != nil {
		return a, false
	}
	as, an, ac, _ := a.form.facts()
	bs, bn, bc, _ := b.form.facts()
	if as+bs > sentenceStrings || an+bn > sentenceNumbers || ac+bc > sentenceChoices {
		return a, false
	}
	copy(a.strs[as:], b.strs[:bs])
	copy(a.nums[an:], b.nums[:bn])
	copy(a.choices[ac:], b.choices[:bc])
	a.tail = b.form
	return a, true
}

// isText reports whether s is a Text and nothing more.
func (s Sentence) isText() bool { return s.form == textForm && s.tail == nil }

// IsZero reports whether the sentence says nothing.
func (s Sentence) IsZero() bool { return s.form == nil }

// String writes the sentence out.
func (s Sentence) String() string {
	switch {
	case s.form == nil:
		return ""
	case s.isText():
		return s.strs[0]
	}
	var b strings.Builder
	b.Grow(s.sizeHint())
	s.Render(&b)
	return b.String()
}

// sizeHint is room for the written sentence: its words, its strings and
// some digits, a little more than it takes, so that it is written in one
// allocation.
func (s *Sentence) sizeHint() int {
	n := 64
	for _, f := range [2]*Form{s.form, s.tail} {
		if f != nil {
			n += len(f.Text)
		}
	}
	for _, str := range s.strs {
		n += len(str)
	}
	return n
}

// Render writes the sentence to b.
func (s Sentence) Render(b *strings.Builder) {
	var at [3]int // the next string, number and choice to write
	for _, f := range [2]*Form{s.form, s.tail} {
		if f == nil {
			return
		}
		s.render(b, f, &at)
	}
}

// render writes f, with the facts from at on, to b, and moves at past them.
func (s *Sentence) render(b *strings.Builder, f *Form, at *[3]int) {
	var digits [24]byte
	for i := 0; ; {
		lit, verb, words, next := scan(f.Text, i)
		i = next
		b.WriteString(lit)
		switch verb {
		case endOfForm:
			return
		case literalOnly:
			continue
		case 's', 'q':
			str := s.strs[min(at[0], sentenceStrings-1)]
			at[0]++
			if verb == 's' {
				b.WriteString(str)
			} else {
				b.Write(strconv.AppendQuote(digits[:0], str))
			}
			continue
		case '[':
			c := int(s.choices[min(at[2], sentenceChoices-1)])
			at[2]++
			w, ok := word(words, c)
			if !ok {
				w = "%![" + itoa(c) + "]"
			}
			b.WriteString(w)
			continue
		}
		n := s.nums[min(at[1], sentenceNumbers-1)]
		at[1]++
		switch verb {
		case 'd':
			b.Write(strconv.AppendInt(digits[:0], n, 10))
		case 'u':
			b.Write(strconv.AppendUint(digits[:0], uint64(n), 10))
		case 'D':
			b.WriteString(time.Duration(n).String())
		case 'T':
			WriteSeconds(b, time.Duration(n))
		case '{':
			one, many, _ := strings.Cut(words, "|")
			WriteCount(b, int(n), one, many)
		default:
			b.WriteString("%!" + string(verb))
		}
	}
}

// word returns the i-th of the words "a|b|c", from 0.
func word(words string, i int) (string, bool) {
	for ; i > 0; i-- {
		j := strings.IndexByte(words, '|')
		if j < 0 {
			return "", false
		}
		words = words[j+1:]
	}
	w, _, _ := strings.Cut(words, "|")
	return w, true
}

// hashSentence folds a sentence into the running trace hash: its forms'
// words, then every fact, strings by their bytes and length, numbers by
// their value, choices by theirs. The facts a sentence's forms do not take
// are zero, so they fold in the same way whatever the sentence. A sentence
// with no facts, or one written out already (Text), folds in its text alone,
// as every summary was hashed before sentences became lazy, so such steps
// keep the hashes they had.
func hashSentence(h uint64, s *Sentence) uint64 {
	switch {
	case s.form == nil:
		return hashString(h, "")
	case s.isText():
		return hashString(h, s.strs[0])
	}
	h = hashString(h, s.form.Text)
	if s.tail != nil {
		h = hashString(h, s.tail.Text)
	} else {
		// No tail hashes apart from a tail of no words.
		h = hashUint(h, 1)
	}
	for _, str := range s.strs {
		h = hashString(h, str)
	}
	for _, n := range s.nums {
		h = hashUint(h, uint64(n))
	}
	var c uint64
	for i, v := range s.choices {
		c |= uint64(v) << (8 * i)
	}
	return hashUint(h, c)
}
