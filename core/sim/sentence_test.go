package sim

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestASentenceIsWrittenOutAsItsFormSays(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Sentence
		want string
	}{
		{"zero", Sentence{}, ""},
		{"text", Text("the queue is empty"), "the queue is empty"},
		{"string", Say(registered("pod/%s added"), "web-1"), "pod/web-1 added"},
		{"quoted", Say(registered("ignored unknown event %q"), "p\"ng"), `ignored unknown event "p\"ng"`},
		{"numbers", Say(registered("%d and %u")).With(-3, -1), "-3 and 18446744073709551615"},
		{"duration", Say(registered("retry in %D")).With(int64(90 * time.Second)), "retry in 1m30s"},
		{"time", Say(registered("until t=%T")).With(int64(2004 * time.Millisecond)), "until t=2.004s"},
		{"count of one", Say(registered("(%{key|keys} pending)")).With(1), "(1 key pending)"},
		{"count of many", Say(registered("(%{key|keys} pending)")).With(0), "(0 keys pending)"},
		{"choice", Say(registered("it is %[absent|waiting|processing]")).With(2), "it is processing"},
		{"empty choice", Say(registered("enqueued%[| (again)]")).With(0), "enqueued"},
		{"choice out of range", Say(registered("it is %[a|b]")).With(5), "it is %![5]"},
		{"holes in any order", Say(registered("%s has %d of %s, %u left"), "rs/web", "pods").With(3, 7),
			"rs/web has 3 of pods, 7 left"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.s.String())
			var b strings.Builder
			b.WriteString(">")
			c.s.Render(&b)
			assert.Equal(t, ">"+c.want, b.String(), "Render writes what String returns")
		})
	}
}

func TestAPercentSignIsWrittenOnce(t *testing.T) {
	assert.Equal(t, "25% of pods", Say(registered("%d%% of %s"), "pods").With(25).String())
	assert.Equal(t, "100%", Say(registered("100%%")).String())
}

// TestMisusedFormsShowInTheSentence: a sentence given the wrong facts for
// its form is a bug; it shows in the trace, with the form, instead of
// stopping the world or reading as a sentence that never was.
func TestMisusedFormsShowInTheSentence(t *testing.T) {
	f := registered("pod/%s on %s: %d")
	assert.Equal(t, `%!(form "pod/%s on %s: %d" got the wrong strings)`, Say(f, "web").String())
	assert.Equal(t, `%!(form "pod/%s on %s: %d" got the wrong numbers)`, Say(f, "web", "node-1").With(1, 2, 3).String())
	assert.Equal(t, `%!(form "pod/%s on %s: %d" got the wrong numbers)`, Say(f, "web", "node-1").With().String())
	assert.Equal(t, "pod/web on node-1: 4", Say(f, "web", "node-1").With(4).String())
	choice := registered("it is %[a|b]")
	assert.Equal(t, `%!(form "it is %[a|b]" got the wrong choice 256)`, Say(choice).With(256).String(), "a choice is a byte")
	assert.Equal(t, `%!(form "it is %[a|b]" got the wrong choice -1)`, Say(choice).With(-1).String())
	assert.Equal(t, "it is %![5]", Say(choice).With(5).String(), "a choice beyond the words shows")
}

// TestMalformedFormsAreRefused: Register panics on a malformed form, when
// its package is initialised; CheckForm says what is wrong with one.
func TestMalformedFormsAreRefused(t *testing.T) {
	const full = "a sentence holds at most 4 strings, 3 numbers and 4 choices"
	for text, why := range map[string]string{
		"50%":                                   "ends with a lone %",
		"%x":                                    "an unknown hole",
		"%{key}":                                "names two nouns",
		"%{key|keys":                            "a %{ or %[ is not closed",
		"%[a|b":                                 "a %{ or %[ is not closed",
		"%[a|b}":                                "a %{ or %[ is not closed",
		"%s %s %s %s %s":                        full,
		"%d %d %d %{one|many}":                  full,
		"%d %u %D %T %[a|b|c]":                  full,
		"%[a]%[a]%[a]%[a]%[a]":                  full,
		"%d %u %D %[a]%[a]%[a]%[a] %s %s %s %s": "",
		"pod/%s is %[a|b]%{x|} at 100%%":        "",
	} {
		_, _, err := CheckForm(text)
		if why == "" {
			assert.NoError(t, err, text)
			continue
		}
		if assert.Error(t, err, text) {
			assert.Contains(t, err.Error(), why, text)
			assert.PanicsWithValue(t, "sim: "+err.Error(), func() { Register(&Form{Text: text}) }, text)
		}
	}
	s, n, err := CheckForm("%s %q %d %u %{a|b} %[x|y] %%")
	require.NoError(t, err)
	assert.Equal(t, 2, s)
	assert.Equal(t, 4, n, "numbers and choices")
}

var (
	formTook     = &Form{Text: "took %s: %d pods owned, want %d"}
	formSyncDone = &Form{Text: "; sync of %s done"}
	formBig      = &Form{Text: "%s %s %s %s %d %d %d"}
	formWide     = &Form{Text: " %s %s %s %d %d %d"}
	formChoosy   = &Form{Text: " %[a|b]%[a|b]%[a|b]"}
)

func init() {
	Register(
		formTook,
		formSyncDone,
		formBig,
		formWide,
		formChoosy,
	)
}

// TestThenKeepsTwoFormsLazyAndWritesOutWhatDoesNotFit: a sentence followed
// by another reads as the two one after the other, whether they fit in one
// sentence's room (and stay facts) or not (and are written out).
func TestThenKeepsTwoFormsLazyAndWritesOutWhatDoesNotFit(t *testing.T) {
	took := Say(formTook, "default/web").With(3, 5)
	done := Say(formSyncDone, "default/web")
	joined := took.Then(done)
	assert.Equal(t, "took default/web: 3 pods owned, want 5; sync of default/web done", joined.String())
	assert.Equal(t, formSyncDone.id, joined.tail, "both fit: the second form is kept as a form")

	wide := Say(formWide, "a", "b", "c").With(1, 2, 3)
	choosy := Say(formChoosy).With(1, 1, 1)
	assert.Equal(t, "took default/web: 3 pods owned, want 5 bbb", took.Then(choosy).String())
	assert.Equal(t, formChoosy.id, took.Then(choosy).tail, "choices fit beside numbers")
	six := choosy.Then(choosy)
	assert.Equal(t, " bbb bbb", six.String())
	assert.Equal(t, formChoosy.id, six.tail, "six choices do not fit in four: the first part is written out")
	overflow := took.Then(wide)
	assert.Equal(t, took.String()+wide.String(), overflow.String())
	assert.Equal(t, formWide.id, overflow.tail, "the first part is written out, the second stays facts")

	big := Say(formBig, "a", "b", "c", "d").With(1, 2, 3)
	oneTooMany := Text("took it: ").Then(big)
	assert.Equal(t, "took it: "+big.String(), oneTooMany.String(), "five strings do not fit in four")
	assert.True(t, oneTooMany.isText())

	three := joined.Then(done)
	assert.Equal(t, joined.String()+done.String(), three.String())

	both := big.Then(joined)
	assert.Equal(t, big.String()+joined.String(), both.String())
	assert.True(t, both.isText(), "neither fits beside the other: all is written out")

	assert.Equal(t, took, took.Then(Sentence{}), "nothing after: unchanged")
	assert.Equal(t, took, Sentence{}.Then(took), "nothing before: the second alone")
	assert.Equal(t, Text("ab"), Text("a").Then(Text("b")), "two texts are one text")
}

// TestMakingASentenceAllocatesNothing: saying a sentence, joining two and
// hashing it are done for every step, so none of them may allocate.
func TestMakingASentenceAllocatesNothing(t *testing.T) {
	key, name := "default/web", "web"
	var s Sentence
	var h uint64
	allocs := testing.AllocsPerRun(100, func() {
		s = Say(formTook, key).With(3, 5).Then(Say(formSyncDone, name))
		h = hashSentence(hashSeed, &s)
		s = Text("the queue is empty: idle until a key arrives")
		h = hashSentence(h, &s)
	})
	assert.Zero(t, allocs)
	assert.NotZero(t, h)
}

// TestATextHashesAsItsWordsDid: a sentence with no facts, or written out
// already, folds into the trace hash exactly as a summary string did before
// sentences were lazy, so steps that say one keep their hashes.
func TestATextHashesAsItsWordsDid(t *testing.T) {
	for _, text := range []string{"", "x", "the queue is empty: idle until a key arrives"} {
		s := Text(text)
		assert.Equal(t, hashString(hashSeed, text), hashSentence(hashSeed, &s), text)
	}
	var zero Sentence
	assert.Equal(t, hashString(hashSeed, ""), hashSentence(hashSeed, &zero))
}

// TestTheTraceHashFoldsInEveryFactOfASentence: the hash reads a sentence's
// forms and facts, never its written text, and is as sensitive as hashing
// the text was: changing any bit of any string fact, any bit of any number
// fact, where one string ends and the next begins, or either form, changes
// it; the same facts always give the same hash.
func TestTheTraceHashFoldsInEveryFactOfASentence(t *testing.T) {
	first := registered("%s/%s took %s: %d pods%[| (again)]")
	second := registered("; %s waits %D (%u)%[|, a worker holds it|, marked]")
	build := func(strs [4]string, nums [5]int64) Sentence {
		return Say(first, strs[0], strs[1], strs[2]).With(nums[0], nums[3]).
			Then(Say(second, strs[3]).With(nums[1], nums[2], nums[4]))
	}
	strs := [4]string{"default", "web-7xk2p", "rs/web", "worker-1"}
	nums := [5]int64{3, int64(20 * time.Millisecond), 42, 1, 2}
	base := build(strs, nums)
	require.Equal(t, second.id, base.tail, "the sentence under test keeps both forms")
	want := hashSentence(hashSeed, &base)
	again := build(strs, nums)
	assert.Equal(t, want, hashSentence(hashSeed, &again), "the same facts, the same hash")

	seen := map[uint64]string{want: "base"}
	check := func(s Sentence, what string) {
		t.Helper()
		h := hashSentence(hashSeed, &s)
		if prev, dup := seen[h]; dup {
			t.Errorf("%s hashes as %s", what, prev)
		}
		seen[h] = what
	}
	for i := range strs {
		for j := range len(strs[i]) {
			for bit := range 8 {
				changed := strs
				b := []byte(changed[i])
				b[j] ^= 1 << bit
				changed[i] = string(b)
				check(build(changed, nums), "string "+itoa(i)+" byte "+itoa(j)+" bit "+itoa(bit))
			}
		}
		longer := strs
		longer[i] += "\x00"
		check(build(longer, nums), "string "+itoa(i)+" with a zero byte more")
	}
	for i := range nums {
		bits := 64
		if i >= 3 {
			bits = 8 // a choice is a byte
		}
		for bit := range bits {
			changed := nums
			changed[i] ^= 1 << bit
			check(build(strs, changed), "number "+itoa(i)+" bit "+itoa(bit))
		}
	}

	otherFirst := Say(registered("%s/%s took %s: %d pods%[| (again)] "), strs[0], strs[1], strs[2]).With(nums[0], nums[3]).
		Then(Say(second, strs[3]).With(nums[1], nums[2], nums[4]))
	check(otherFirst, "another first form")
	noTail := Say(first, strs[0], strs[1], strs[2]).With(nums[0], nums[3])
	check(noTail, "no second form")
	check(Text(base.String()), "the same words, written out")

	adjacent := registered("%s%s")
	ab, a := Say(adjacent, "ab", "c"), Say(adjacent, "a", "bc")
	require.Equal(t, ab.String(), a.String())
	assert.NotEqual(t, hashSentence(hashSeed, &ab), hashSentence(hashSeed, &a), "where one string ends and the next begins counts")
}

// TestWriteSecondsAndNumbersAtTheirLimits: the holes write extreme values
// as strconv and FormatSeconds do.
func TestWriteSecondsAndNumbersAtTheirLimits(t *testing.T) {
	f := registered("%d %u %T")
	assert.Equal(t, "-9223372036854775808 9223372036854775807 -0.001s",
		Say(f).With(math.MinInt64, math.MaxInt64, -int64(time.Millisecond)).String())
}

// TestASentenceIsWrittenOutInOneAllocation: writing a sentence out sizes its
// buffer from its words and strings, so even a long one takes one
// allocation.
func TestASentenceIsWrittenOutInOneAllocation(t *testing.T) {
	long := strings.Repeat("web-7xk2p-", 20)
	s := Say(formTook, long).With(1000000, 2000000).Then(Say(formSyncDone, long))
	var out string
	assert.Equal(t, 1.0, testing.AllocsPerRun(10, func() { out = s.String() }))
	assert.Equal(t, "took "+long+": 1000000 pods owned, want 2000000; sync of "+long+" done", out)
}

// registered is a form made and registered for one test.
func registered(text string) *Form {
	f := &Form{Text: text}
	Register(f)
	return f
}

// TestAFormIsRegisteredOnce: a form not registered says so in its
// sentences, and registering one twice is a bug that stops the program.
func TestAFormIsRegisteredOnce(t *testing.T) {
	f := &Form{Text: "pod/%s added"}
	assert.Equal(t, `%!(form "pod/%s added" is not registered)`, Say(f, "web").String())
	Register(f)
	assert.Equal(t, "pod/web added", Say(f, "web").String())
	assert.PanicsWithValue(t, `sim: form "pod/%s added" is registered twice`, func() { Register(f) })
}
