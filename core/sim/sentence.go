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
	sentenceChoices = 4
)

// Form is the wording of one kind of sentence, with holes where its facts
// go. Forms are package variables, written as data:
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
// A sentence holds its form as a number, two bytes, in the program's table
// of forms. A package gives its forms their numbers in an init function
// (Register), which reads them into the table:
//
//	func init() { sim.Register(formAdded, formUpdated) }
//
// A form is data, and the one call lists every form of a file, because a
// call to make each of the program's three hundred forms was 22 KB of
// main.wasm's start-up code. The numbers follow the order packages are
// initialised in, and nothing a learner sees, and nothing hashed, depends on
// them: the trace hash folds in the form's text (form.digest). A form that
// was never registered says so in its sentences ("%!(form ... is not
// registered)"), and the test of core's sentences
// (TestEverySentenceGivesItsFormItsFacts) finds any before a learner does.
type Form struct {
	// Text is the form as written.
	Text string

	// id is the form's number in the table, 0 until Register.
	id formID
	// strs is how many strings the form takes, as its entry in the table
	// says: Say checks it on every call, and reading it here spares that
	// check the look-up in the table.
	strs uint8
}

// formID is a form's number in the table of forms; 0 is no form.
type formID uint16

// form is what a Form's text is read into, once.
type form struct {
	// text is the form as written; digest is its hash, the form's part of
	// the trace hash.
	text   string
	digest uint64

	// parts is the form cut at its holes: each part is literal text
	// followed by at most one hole.
	parts []formPart

	// strs, nums and choices count the form's string, number and choice
	// holes. choice has bit i set when the i-th number With is given is a
	// choice.
	strs, nums, choices uint8
	choice              uint8
}

// formPart is literal text and the hole after it (verb 0: none).
type formPart struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	lit  string
	verb byte
	// arg is the hole's index among the form's strings, numbers or choices.
	arg uint8
	// words are a count's nouns (one|many) or a choice's words (a|b|c).
	words string
}

// forms is the table of forms, by number; form 0 is no form. Register adds
// to it while packages are initialised, on one goroutine, before any world
// runs; nothing changes it afterwards, so worlds stepped at once read it
// without a lock.
var forms = []form{{}}

// Register parses forms (see Form for their holes) and gives each its
// number in the table of forms. It panics on a malformed form, or on one
// registered twice, as regexp.MustCompile does: forms are constants written
// in code and registered when their package is initialised, so any test of
// that package finds a bad one. It is for init functions only: the table
// must not change while steps run.
func Register(list ...*Form) {
	for _, f := range list {
		if f.id != 0 {
			panic("sim: form " + quote(f.Text) + " is registered twice")
		}
		parsed, err := parseForm(f.Text)
		if err != nil {
			panic("sim: " + err.Error())
		}
		forms = append(forms, parsed)
		f.id, f.strs = formID(len(forms)-1), parsed.strs
	}
}

// CheckForm says what is wrong with a form's text, if anything, without
// making the form; and how many strings, and how many numbers (choices
// included), a sentence of it takes: what Say and then With must be given.
func CheckForm(text string) (strs, numbers int, err error) {
	f, err := parseForm(text)
	return int(f.strs), int(f.nums + f.choices), err
}

func parseForm(text string) (form, error) {
	f := form{text: text, digest: hashString(hashSeed, text)}
	lit := 0 // start of the literal text not yet in a part
	for i := 0; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		if i+1 >= len(text) {
			return f, formError(text, "it ends with a lone %")
		}
		p := formPart{lit: text[lit:i], verb: text[i+1]}
		lit = i + 2
		switch p.verb {
		case '%':
			// A literal percent sign ends a part of its own.
			p.lit, p.verb = text[i-len(p.lit):i+1], 0
		case 's', 'q':
			p.arg = f.strs
			f.strs++
		case '{', '[':
			end := strings.IndexAny(text[lit:], "}]")
			if end < 0 || text[lit+end] != p.verb+2 { // '}' is '{'+2, ']' is '['+2
				return f, formError(text, "a %{ or %[ is not closed")
			}
			p.words = text[lit : lit+end]
			lit += end + 1
			if p.verb == '{' {
				if strings.Count(p.words, "|") != 1 {
					return f, formError(text, "a count %{one|many} names two nouns")
				}
				p.arg = f.nums
				f.nums++
				break
			}
			f.choice |= 1 << (f.nums + f.choices)
			p.arg = f.choices
			f.choices++
		case 'd', 'u', 'D', 'T':
			p.arg = f.nums
			f.nums++
		default:
			return f, formError(text, "an unknown hole")
		}
		f.parts = append(f.parts, p)
		i = lit - 1
	}
	if lit < len(text) {
		f.parts = append(f.parts, formPart{lit: text[lit:]})
	}
	if f.strs > sentenceStrings || f.nums > sentenceNumbers || f.choices > sentenceChoices {
		return f, formError(text, "a sentence holds at most 4 strings, 3 numbers and 4 choices: split it in two joined by Then")
	}
	return f, nil
}

// formError says what is wrong with a form.
func formError(text, why string) error { return errors.New("form " + quote(text) + ": " + why) }

// String returns the form as written.
func (f *Form) String() string { return f.Text }

// textForm is the form of a sentence written out already (Text).
var textForm = &Form{Text: "%s"}

// textID is textForm's number, kept by itself: isText asks for it on every
// Then and every step's hash, and reading it through textForm took a load
// more.
var textID formID

func init() {
	Register(textForm)
	textID = textForm.id
}

// Sentence is what a step says it did, for a learner: a Form and the facts
// that fill its holes, held inline, optionally followed by a second form
// with its own facts (Then). The zero Sentence says nothing.
//
// Making one allocates nothing, and copying one copies no text; the
// sentence is written out only when asked for. A Sentence refers to the
// strings it was given, which must not change afterwards (Go strings never
// do).
type Sentence struct {
	// Sentences are not compared with ==: two that read the same may hold
	// different forms, and the functions that compare them would only make
	// the program bigger.
	_ [0]func()

	// form is the sentence's wording, 0 for the zero Sentence; tail, when
	// not 0, continues it, with the facts after form's.
	form, tail formID
	choices    [sentenceChoices]uint8
	strs       [sentenceStrings]string
	nums       [sentenceNumbers]int64
}

// Say makes a sentence of form f with its string facts, in the order of
// f's string holes. Its number facts, if it has number holes, follow with
// With.
func Say(f *Form, strs ...string) Sentence {
	id := f.id
	if id == 0 {
		return Text("%!(form " + quote(f.Text) + " is not registered)")
	}
	if len(strs) != int(f.strs) {
		return misused(id, "strings")
	}
	// The sentence is written where the caller takes it, one composite
	// literal for each number of strings. Built in a variable and returned,
	// it was copied out in 16-byte moves that had to wait for the 8-byte
	// stores that had just filled it: Say was 2.3% of a 100x10 profile, and
	// Say and Then together take 13% less time this way in a benchmark of
	// the two. (copy would be worse: it goes through the runtime's
	// typedslicecopy, which checks for a write barrier.)
	switch len(strs) {
	case 0:
		return Sentence{form: id}
	case 1:
		return Sentence{form: id, strs: [sentenceStrings]string{strs[0]}}
	case 2:
		return Sentence{form: id, strs: [sentenceStrings]string{strs[0], strs[1]}}
	case 3:
		return Sentence{form: id, strs: [sentenceStrings]string{strs[0], strs[1], strs[2]}}
	case 4:
		return Sentence{form: id, strs: [sentenceStrings]string{strs[0], strs[1], strs[2], strs[3]}}
	}
	// More strings than the cases above, should sentenceStrings grow.
	s := Sentence{form: id}
	//lint:ignore S1001 a loop, not copy: see above.
	for i, v := range strs {
		s.strs[i] = v
	}
	return s
}

// With sets the number and choice facts of a sentence Say just made, in the
// order of its form's number and choice holes.
func (s Sentence) With(nums ...int64) Sentence {
	f := &forms[s.form]
	if s.tail != 0 || len(nums) != int(f.nums+f.choices) {
		return misused(s.form, "numbers")
	}
	if f.choice == 0 {
		// Numbers only, as most forms with numbers take: they go in as
		// given, written out rather than looped over.
		// (The cases cover sentenceNumbers, three; a check below holds it.)
		switch len(nums) {
		case 1:
			s.nums[0] = nums[0]
		case 2:
			s.nums[0], s.nums[1] = nums[0], nums[1]
		case 3:
			s.nums[0], s.nums[1], s.nums[2] = nums[0], nums[1], nums[2]
		}
		return s
	}
	n, c := 0, 0
	for i, v := range nums {
		if f.choice&(1<<i) == 0 {
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

// With writes out three numbers at most: this fails to compile when
// sentenceNumbers is another number, and With must then be written again.
var _ = [1]struct{}{}[sentenceNumbers-3]

// Text is a sentence with no facts to fill in: a constant ("the queue is
// empty: idle until a key arrives"), or one written out already. A constant
// costs nothing; joining strings to make one costs what it did before
// sentences were lazy, so Say is for everything else. After Then a Text
// takes a string fact's room in the sentence; a form without holes takes
// none.
func Text(text string) Sentence {
	s := Sentence{form: textID}
	s.strs[0] = text
	return s
}

// misused is the sentence of a form given the wrong facts: a bug, which
// shows in the trace rather than stopping the world.
func misused(f formID, what string) Sentence {
	return Text("%!(form " + quote(forms[f].text) + " got the wrong " + what + ")")
}

// Then returns s followed by next, as one sentence: "took default/web" then
// "; sync of default/web done". When the two fit in one sentence's room
// (one form each, and their facts together within its capacity) the result
// is as lazy as its parts; otherwise what does not fit is written out first.
func (s Sentence) Then(next Sentence) Sentence {
	switch {
	case next.form == 0:
		return s
	case s.form == 0:
		return next
	case s.isText() && next.isText():
		// Both are written out already: one text, hashed as the two
		// together were before sentences were lazy.
		return Text(s.strs[0] + next.strs[0])
	}
	// The usual case, join's, is written out here, into s: a sentence is
	// 96 bytes, and handing s to join and its result back copied it twice
	// more, for the most frequent call a step makes after Say.
	if s.tail == 0 && next.tail == 0 {
		fa, fb := &forms[s.form], &forms[next.form]
		if fa.strs+fb.strs <= sentenceStrings && fa.nums+fb.nums <= sentenceNumbers && fa.choices+fb.choices <= sentenceChoices {
			for i := range fb.strs {
				s.strs[fa.strs+i] = next.strs[i]
			}
			for i := range fb.nums {
				s.nums[fa.nums+i] = next.nums[i]
			}
			for i := range fb.choices {
				s.choices[fa.choices+i] = next.choices[i]
			}
			s.tail = next.form
			return s
		}
	}
	if joined, ok := join(Text(s.String()), next); ok {
		return joined
	}
	return Text(s.String() + next.String())
}

// join puts b after a as a's tail, when both are one form and their facts
// fit.
func join(a, b Sentence) (Sentence, bool) {
	if a.tail != 0 || b.tail != 0 {
		return a, false
	}
	fa, fb := &forms[a.form], &forms[b.form]
	if fa.strs+fb.strs > sentenceStrings || fa.nums+fb.nums > sentenceNumbers || fa.choices+fb.choices > sentenceChoices {
		return a, false
	}
	for i, v := range b.strs[:fb.strs] {
		a.strs[int(fa.strs)+i] = v // a loop, not copy, as in Say
	}
	copy(a.nums[fa.nums:], b.nums[:fb.nums])
	copy(a.choices[fa.choices:], b.choices[:fb.choices])
	a.tail = b.form
	return a, true
}

// isText reports whether s is a Text and nothing more.
func (s Sentence) isText() bool { return s.form == textID && s.tail == 0 }

// IsZero reports whether the sentence says nothing.
func (s Sentence) IsZero() bool { return s.form == 0 }

// String writes the sentence out.
func (s Sentence) String() string {
	if s.isText() {
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
	n := 64 + len(forms[s.form].text) + len(forms[s.tail].text)
	for _, str := range s.strs {
		n += len(str)
	}
	return n
}

// Render writes the sentence to b.
func (s Sentence) Render(b *strings.Builder) {
	f := &forms[s.form]
	f.render(b, s.strs[:], s.nums[:], s.choices[:])
	if s.tail != 0 {
		forms[s.tail].render(b, s.strs[f.strs:], s.nums[f.nums:], s.choices[f.choices:])
	}
}

// render writes f with its facts to b.
func (f *form) render(b *strings.Builder, strs []string, nums []int64, choices []uint8) {
	var digits [24]byte
	for _, p := range f.parts {
		b.WriteString(p.lit)
		var n int64
		switch p.verb {
		case 0:
			continue
		case 's':
			b.WriteString(strs[p.arg])
			continue
		case 'q':
			b.Write(strconv.AppendQuote(digits[:0], strs[p.arg]))
			continue
		case '[':
			w, ok := word(p.words, int(choices[p.arg]))
			if !ok {
				w = "%![" + itoa(int(choices[p.arg])) + "]"
			}
			b.WriteString(w)
			continue
		}
		n = nums[p.arg]
		switch p.verb {
		case 'd':
			b.Write(strconv.AppendInt(digits[:0], n, 10))
		case 'u':
			b.Write(strconv.AppendUint(digits[:0], uint64(n), 10))
		case 'D':
			b.WriteString(time.Duration(n).String())
		case 'T':
			WriteSeconds(b, time.Duration(n))
		case '{':
			one, many, _ := strings.Cut(p.words, "|")
			WriteCount(b, int(n), one, many)
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

// hashSentence folds a sentence into the running trace hash: each form's
// digest and then its facts, strings by their bytes and length, numbers by
// their value. A sentence with no facts, or one written out already (Text),
// folds in its text alone, as every summary was hashed before sentences
// became lazy, so such steps keep the hashes they had.
func hashSentence(h uint64, s *Sentence) uint64 {
	switch {
	case s.form == 0:
		return hashString(h, "")
	case s.isText():
		return hashString(h, s.strs[0])
	}
	f := &forms[s.form]
	h = f.hash(h, s, 0, 0, 0)
	if s.tail != 0 {
		h = forms[s.tail].hash(h, s, int(f.strs), int(f.nums), int(f.choices))
	}
	return h
}

// hash folds in the form's digest and its facts, which start in s at the
// given places: 0 for the sentence's form, just after its own for the
// form Then joined to it. It indexes the sentence's arrays rather than
// slicing them: three slices made for every form hashed were a tenth of
// the hashing (every step hashes a sentence).
func (f *form) hash(h uint64, s *Sentence, str, num, choice int) uint64 {
	h = hashUint(h, f.digest)
	for i := str; i < str+int(f.strs); i++ {
		h = hashString(h, s.strs[i])
	}
	for i := num; i < num+int(f.nums); i++ {
		h = hashUint(h, uint64(s.nums[i]))
	}
	for i := choice; i < choice+int(f.choices); i++ {
		h = hashUint(h, uint64(s.choices[i]))
	}
	return h
}
