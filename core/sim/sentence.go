package sim

import (
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
// go. Forms are made once, as package variables, by MustForm:
//
//	var formAdded = sim.MustForm("pod/%s added: enqueued %s (%{key|keys} waiting)")
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
type Form struct {
	// text is the form as written; its hash is the form's part of the trace
	// hash.
	text   string
	digest uint64

	// parts is the form cut at its holes: each part is literal text
	// followed by at most one hole.
	parts []formPart

	// strs, nums and choices count the form's string, number and choice
	// holes; choice[i] tells whether the i-th number given to With is a
	// choice.
	strs, nums, choices uint8
	choice              []bool

	// fixed is the length of the form's literal text, for sizing a buffer.
	fixed int
}

// formPart is literal text and the hole after it (verb 0: none).
type formPart struct {
	lit  string
	verb byte
	// arg is the hole's index among the form's strings, numbers or choices.
	arg uint8
	// words are a count's nouns (one, many) or a choice's words.
	words []string
}

// MustForm parses a form (see Form for its holes). It panics on a malformed
// form, as regexp.MustCompile does: forms are constants written in code and
// made when their package is initialised, so any test of that package finds
// a bad one.
func MustForm(text string) *Form {
	f := &Form{text: text, digest: hashString(hashSeed, text)}
	lit := 0 // start of the literal text not yet in a part
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		if i+1 >= len(text) {
			panic("sim: form " + quote(text) + " ends with a lone %")
		}
		b.WriteString(text[lit:i])
		verb := text[i+1]
		p := formPart{verb: verb}
		lit = i + 2
		switch verb {
		case '%':
			b.WriteByte('%')
			i++
			continue
		case 's', 'q':
			p.arg = f.strs
			f.strs++
		case 'd', 'u', 'D', 'T':
			p.arg = f.nums
			f.nums++
			f.choice = append(f.choice, false)
		case '{', '[':
			closer := byte('}')
			if verb == '[' {
				closer = ']'
			}
			end := strings.IndexByte(text[i+2:], closer)
			if end < 0 {
				panic("sim: form " + quote(text) + ": %" + string(verb) + " is not closed by " + string(closer))
			}
			p.words = strings.Split(text[i+2:i+2+end], "|")
			if verb == '{' {
				if len(p.words) != 2 {
					panic("sim: form " + quote(text) + ": a count %{one|many} names two nouns, not " + quote(text[i+1:i+3+end]))
				}
				p.arg = f.nums
				f.nums++
			} else {
				p.arg = f.choices
				f.choices++
			}
			f.choice = append(f.choice, verb == '[')
			lit = i + 3 + end
		default:
			panic("sim: form " + quote(text) + ": unknown hole %" + string(verb) + " (known: %s %q %d %u %D %T %{one|many} %[a|b] %%)")
		}
		p.lit = b.String()
		f.fixed += len(p.lit)
		b.Reset()
		f.parts = append(f.parts, p)
		i = lit - 1
	}
	b.WriteString(text[lit:])
	if b.Len() > 0 {
		f.parts = append(f.parts, formPart{lit: b.String()})
		f.fixed += b.Len()
	}
	if f.strs > sentenceStrings || f.nums > sentenceNumbers || f.choices > sentenceChoices {
		panic("sim: form " + quote(text) + " has " + itoa(int(f.strs)) + " string, " + itoa(int(f.nums)) + " number and " +
			itoa(int(f.choices)) + " choice holes; a sentence holds at most " + itoa(sentenceStrings) + ", " +
			itoa(sentenceNumbers) + " and " + itoa(sentenceChoices) + ": split it in two joined by Then")
	}
	return f
}

// String returns the form as written.
func (f *Form) String() string { return f.text }

// Facts returns how many strings, and how many numbers (choices included),
// a sentence of the form takes: what Say and then With must be given.
func (f *Form) Facts() (strings, numbers int) { return int(f.strs), len(f.choice) }

// textForm is the form of a sentence written out already (Text).
var textForm = MustForm("%s")

// Sentence is what a step says it did, for a learner: a Form and the facts
// that fill its holes, held inline, optionally followed by a second form
// with its own facts (Then). The zero Sentence says nothing.
//
// Making one allocates nothing, and copying one copies no text; the
// sentence is written out only when asked for. A Sentence refers to the
// strings it was given, which must not change afterwards (Go strings never
// do).
type Sentence struct {
	// form is the sentence's wording, nil for the zero Sentence; tail, when
	// not nil, continues it, with the facts after form's.
	form, tail *Form
	strs       [sentenceStrings]string
	nums       [sentenceNumbers]int64
	choices    [sentenceChoices]uint8
}

// Say makes a sentence of form f with its string facts, in the order of
// f's string holes. Its number facts, if it has number holes, follow with
// With.
func Say(f *Form, strs ...string) Sentence {
	if len(strs) != int(f.strs) {
		return misused(f, "strings", len(strs), int(f.strs))
	}
	s := Sentence{form: f}
	copy(s.strs[:], strs)
	return s
}

// With sets the number and choice facts of a sentence Say just made, in the
// order of its form's number and choice holes.
func (s Sentence) With(nums ...int64) Sentence {
	f := s.form
	if f == nil || s.tail != nil || len(nums) != len(f.choice) {
		switch {
		case s.tail != nil:
			f = s.tail
		case f == nil:
			f = textForm
		}
		return misused(f, "numbers", len(nums), len(f.choice))
	}
	n, c := 0, 0
	for i, v := range nums {
		if !f.choice[i] {
			s.nums[n] = v
			n++
			continue
		}
		if v < 0 || v > 255 {
			return Text("%!(form " + quote(f.text) + " got choice " + strconv.FormatInt(v, 10) + ")")
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

// misused is the sentence of a form given the wrong number of facts: a bug,
// which shows in the trace rather than stopping the world.
func misused(f *Form, what string, got, want int) Sentence {
	return Text("%!(form " + quote(f.text) + " got " + itoa(got) + " " + what + ", wants " + itoa(want) + ")")
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
	as, an, ac := int(a.form.strs), int(a.form.nums), int(a.form.choices)
	bs, bn, bc := int(b.form.strs), int(b.form.nums), int(b.form.choices)
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
	if s.form == textForm && s.tail == nil {
		return s.strs[0]
	}
	var b strings.Builder
	b.Grow(s.sizeHint())
	s.Render(&b)
	return b.String()
}

// sizeHint is about how long the written sentence is, a little more rather
// than less.
func (s Sentence) sizeHint() int {
	if s.form == nil {
		return 0
	}
	n := s.form.fixed + 20*int(s.form.nums)
	if s.tail != nil {
		n += s.tail.fixed + 20*int(s.tail.nums)
	}
	for _, str := range s.strs {
		n += len(str)
	}
	return n
}

// Render writes the sentence to b.
func (s Sentence) Render(b *strings.Builder) {
	if s.form == nil {
		return
	}
	s.form.render(b, s.strs[:], s.nums[:], s.choices[:])
	if s.tail != nil {
		s.tail.render(b, s.strs[s.form.strs:], s.nums[s.form.nums:], s.choices[s.form.choices:])
	}
}

// render writes f with its facts to b.
func (f *Form) render(b *strings.Builder, strs []string, nums []int64, choices []uint8) {
	var digits [24]byte
	for _, p := range f.parts {
		b.WriteString(p.lit)
		switch p.verb {
		case 's':
			b.WriteString(strs[p.arg])
		case 'q':
			b.Write(strconv.AppendQuote(digits[:0], strs[p.arg]))
		case 'd':
			b.Write(strconv.AppendInt(digits[:0], nums[p.arg], 10))
		case 'u':
			b.Write(strconv.AppendUint(digits[:0], uint64(nums[p.arg]), 10))
		case 'D':
			b.WriteString(time.Duration(nums[p.arg]).String())
		case 'T':
			WriteSeconds(b, time.Duration(nums[p.arg]))
		case '{':
			WriteCount(b, int(nums[p.arg]), p.words[0], p.words[1])
		case '[':
			if i := int(choices[p.arg]); i < len(p.words) {
				b.WriteString(p.words[i])
			} else {
				b.WriteString("%![" + itoa(i) + " of " + itoa(len(p.words)) + "]")
			}
		}
	}
}

// hashSentence folds a sentence into the running trace hash: each form's
// digest and then its facts, strings by their bytes and length, numbers by
// their value. A sentence with no facts, or one written out already (Text),
// folds in its text alone, as every summary was hashed before sentences
// became lazy, so such steps keep the hashes they had.
func hashSentence(h uint64, s *Sentence) uint64 {
	switch {
	case s.form == nil:
		return hashString(h, "")
	case s.form == textForm && s.tail == nil:
		return hashString(h, s.strs[0])
	}
	h = s.form.hash(h, s.strs[:], s.nums[:], s.choices[:])
	if s.tail != nil {
		h = s.tail.hash(h, s.strs[s.form.strs:], s.nums[s.form.nums:], s.choices[s.form.choices:])
	}
	return h
}

func (f *Form) hash(h uint64, strs []string, nums []int64, choices []uint8) uint64 {
	h = hashUint(h, f.digest)
	for _, s := range strs[:f.strs] {
		h = hashString(h, s)
	}
	for _, n := range nums[:f.nums] {
		h = hashUint(h, uint64(n))
	}
	for _, c := range choices[:f.choices] {
		h = hashUint(h, uint64(c))
	}
	return h
}
