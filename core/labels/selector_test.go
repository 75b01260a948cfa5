package labels

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func assertMatch(t *testing.T, selector string, set Set, want bool) {
	t.Helper()
	sel, err := Parse(selector)
	require.NoError(t, err, "Parse(%q)", selector)
	assert.Equal(t, want, sel.Matches(set), "%q on %v", selector, set)
}

// TestSelectorMatches: parsed selectors match as their operators say; the empty
// selector matches anything, and negative operators match absent keys.
func TestSelectorMatches(t *testing.T) {
	assertMatch(t, "", Set{"x": "y"}, true)
	assertMatch(t, "x=y", Set{"x": "y"}, true)
	assertMatch(t, "x=y,z=w", Set{"x": "y", "z": "w"}, true)
	assertMatch(t, "x!=y,z!=w", Set{"x": "z", "z": "a"}, true)
	assertMatch(t, "notin=in", Set{"notin": "in"}, true)
	assertMatch(t, "x", Set{"x": "z"}, true)
	assertMatch(t, "!x", Set{"y": "z"}, true)
	assertMatch(t, "x>1", Set{"x": "2"}, true)
	assertMatch(t, "x<1", Set{"x": "0"}, true)
	assertMatch(t, "x=z", Set{}, false)
	assertMatch(t, "x=y", Set{"x": "z"}, false)
	assertMatch(t, "x=y,z=w", Set{"x": "w", "z": "w"}, false)
	assertMatch(t, "x!=y,z!=w", Set{"x": "z", "z": "w"}, false)
	assertMatch(t, "x", Set{"y": "z"}, false)
	assertMatch(t, "!x", Set{"x": "z"}, false)
	assertMatch(t, "x>1", Set{"x": "0"}, false)
	assertMatch(t, "x<1", Set{"x": "2"}, false)

	labels := Set{"foo": "bar", "baz": "blah"}
	assertMatch(t, "foo=bar", labels, true)
	assertMatch(t, "baz=blah", labels, true)
	assertMatch(t, "foo=bar,baz=blah", labels, true)
	assertMatch(t, "foo=blah", labels, false)
	assertMatch(t, "baz=bar", labels, false)
	assertMatch(t, "foo=bar,foobar=bar,baz=blah", labels, false)

	// The surprise worth a test of its own: != selects sets without the key.
	assertMatch(t, "tier!=cache", Set{"app": "web"}, true)
	assertMatch(t, "tier,tier!=cache", Set{"app": "web"}, false)
}

// TestToString: selectors print in selector syntax, requirements joined by commas
// in the order given, empty values as nothing.
func TestToString(t *testing.T) {
	tests := []struct {
		reqs []Requirement
		want string
	}{
		{[]Requirement{req(t, "x", In, "abc", "def"), req(t, "y", NotIn, "jkl"), req(t, "z", Exists)},
			"x in (abc,def),y notin (jkl),z"},
		{[]Requirement{req(t, "x", NotIn, "abc", "def"), req(t, "y", NotEquals, "jkl"), req(t, "z", DoesNotExist)},
			"x notin (abc,def),y!=jkl,!z"},
		{[]Requirement{req(t, "x", In, "abc", "def"), {}}, // the zero requirement leaves a trailing comma
			"x in (abc,def),"},
		{[]Requirement{req(t, "x", NotIn, "abc"), req(t, "y", In, "jkl", "mno"), req(t, "z", NotIn, "")},
			"x notin (abc),y in (jkl,mno),z notin ()"},
		{[]Requirement{req(t, "x", Equals, "abc"), req(t, "y", DoubleEquals, "jkl"), req(t, "z", NotEquals, "a"), req(t, "z", Exists)},
			"x=abc,y==jkl,z!=a,z"},
		{[]Requirement{req(t, "x", GreaterThan, "2"), req(t, "y", LessThan, "8"), req(t, "z", Exists)},
			"x>2,y<8,z"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Selector{requirements: tt.reqs}.String())
	}
}

// TestEverythingAndNothing: Everything matches every set and is empty; Nothing
// matches no set, is not empty, is not selectable, and stays Nothing when added to;
// both print as "".
func TestEverythingAndNothing(t *testing.T) {
	for _, set := range []Set{nil, {}, {"x": "y"}} {
		assert.True(t, Everything().Matches(set))
		assert.False(t, Nothing().Matches(set))
	}
	assert.True(t, Everything().Empty())
	assert.False(t, Nothing().Empty())
	assert.Equal(t, "", Everything().String())
	assert.Equal(t, "", Nothing().String())

	reqs, selectable := Everything().Requirements()
	assert.Empty(t, reqs)
	assert.True(t, selectable)
	reqs, selectable = Nothing().Requirements()
	assert.Nil(t, reqs)
	assert.False(t, selectable)

	added := Nothing().Add(req(t, "x", Exists))
	assert.False(t, added.Matches(Set{"x": ""}))
	assert.False(t, added.Empty())
}

// TestZeroSelectorIsEverything: the zero Selector, like upstream's NewSelector(),
// matches every set; the empty string parses to the same.
func TestZeroSelectorIsEverything(t *testing.T) {
	var zero Selector
	assert.True(t, zero.Matches(Set{"a": "b"}))
	assert.True(t, zero.Empty())
	assert.Equal(t, Everything(), zero)
	parsed, err := Parse(" \t")
	require.NoError(t, err)
	assert.Equal(t, Everything(), parsed)
}

// TestAdd: Add returns a new selector with the requirements sorted in, and leaves
// the original alone.
func TestAdd(t *testing.T) {
	base := Everything().Add(req(t, "key", In, "value"))
	assert.Equal(t, "key in (value)", base.String())

	more := base.Add(req(t, "key2", Equals, "value2"), req(t, "a", Exists))
	assert.Equal(t, "a,key in (value),key2=value2", more.String())
	assert.Equal(t, "key in (value)", base.String(), "the original is unchanged")

	// Requirements that share a key keep the order they were added in.
	same := Everything().Add(req(t, "k", Equals, "2"), req(t, "k", Exists), req(t, "a", Exists))
	assert.Equal(t, "a,k=2,k", same.String())
}

// TestRequirementsIsACopy: changing what Requirements returns does not change the
// selector.
func TestRequirementsIsACopy(t *testing.T) {
	sel, err := Parse("a=1,b=2")
	require.NoError(t, err)
	reqs, _ := sel.Requirements()
	reqs[0] = req(t, "z", Exists)
	assert.Equal(t, "a=1,b=2", sel.String())
}

// TestSelectorFromSet: one equality requirement per label, in key order, without
// validation; nil and empty sets select everything.
func TestSelectorFromSet(t *testing.T) {
	labels := Set{"foo": "bar", "baz": "blah"}
	for _, subset := range []Set{{}, {"foo": "bar"}, {"baz": "blah"}, {"foo": "bar", "baz": "blah"}} {
		assert.True(t, SelectorFromSet(subset).Matches(labels), "%v", subset)
	}
	assert.False(t, SelectorFromSet(Set{"foo": "bar", "x": "y"}).Matches(labels))

	assert.Equal(t, "baz=blah,foo=bar", SelectorFromSet(labels).String())
	assert.True(t, SelectorFromSet(nil).Empty())
	assert.True(t, SelectorFromSet(Set{}).Empty())

	invalid := SelectorFromSet(Set{"Bad Key": "a b"})
	assert.Equal(t, "Bad Key=a b", invalid.String(), "no validation")
	assert.True(t, invalid.Matches(Set{"Bad Key": "a b"}))
}

// TestValidatedSelectorFromSet: like SelectorFromSet, but bad keys and values are
// errors.
func TestValidatedSelectorFromSet(t *testing.T) {
	sel, err := ValidatedSelectorFromSet(Set{"key": "val"})
	require.NoError(t, err)
	assert.Equal(t, "key=val", sel.String())

	_, err = ValidatedSelectorFromSet(Set{"Key": "axahm2EJ8Phiephe2eixohbee9eGeiyees1thuozi1xoh0GiuH3diewi8iem7Nui"})
	assert.ErrorContains(t, err, "values[0][Key]: Invalid value: ")
	assert.ErrorContains(t, err, "must be no more than 63 characters")

	sel, err = ValidatedSelectorFromSet(nil)
	require.NoError(t, err)
	assert.True(t, sel.Empty())
}

// TestRequiresExactMatch: a key pinned by =, == or a one-value in reports its
// value; anything else, or an absent key, does not.
func TestRequiresExactMatch(t *testing.T) {
	tests := []struct {
		selector, key string
		value         string
		found         bool
	}{
		{"key in (value)", "key", "value", true},
		{"key in (value,value2)", "key", "", false},
		{"key in (value,value1),key2 in (value2)", "key2", "value2", true},
		{"key=value", "key", "value", true},
		{"key==value", "key", "value", true},
		{"key!=value", "key", "", false},
		{"key in (value),key2 in (value2)", "key", "value", true},
		{"key", "key", "", false},
		{"other=value", "key", "", false},
	}
	for _, tt := range tests {
		sel, err := Parse(tt.selector)
		require.NoError(t, err)
		value, found := sel.RequiresExactMatch(tt.key)
		assert.Equal(t, tt.found, found, "%q for %q", tt.selector, tt.key)
		assert.Equal(t, tt.value, value, "%q for %q", tt.selector, tt.key)
	}
}

// TestSetString: a set prints as sorted key=value pairs.
func TestSetString(t *testing.T) {
	assert.Equal(t, "", Set{}.String())
	assert.Equal(t, "app=foo", Set{"app": "foo"}.String())
	assert.Equal(t, "a=b,app=foo", Set{"app": "foo", "a": "b"}.String())
}

// TestStringRoundTrips: what String prints parses back to a selector that prints
// the same and has the same requirements.
func TestStringRoundTrips(t *testing.T) {
	for _, input := range []string{
		"x in (a,,,),y notin (),!z,w,v=,u==1,t!=q,s>0,r<9",
		"example.com/app in (in,notin),in=notin",
	} {
		first, err := Parse(input)
		require.NoError(t, err)
		second, err := Parse(first.String())
		require.NoError(t, err)
		assert.Equal(t, first.String(), second.String())
		r1, _ := first.Requirements()
		r2, _ := second.Requirements()
		assert.Equal(t, r1, r2)
	}
}

// TestMatchOrder: Matches tests the requirements that demand a value first and
// the negative ones last, while Requirements and String keep key order.
func TestMatchOrder(t *testing.T) {
	sel, err := Parse("!a,b notin (x),c=1,d,e in (y),f>2,g!=3")
	require.NoError(t, err)
	var keys []string
	for _, r := range sel.plan {
		keys = append(keys, r.Key())
	}
	assert.Equal(t, []string{"c", "e", "d", "f", "a", "b", "g"}, keys)
	assert.Equal(t, "!a,b notin (x),c=1,d,e in (y),f>2,g!=3", sel.String())

	assert.True(t, sel.Matches(Set{"c": "1", "d": "", "e": "y", "f": "3"}))
	assert.False(t, sel.Matches(Set{"c": "1", "d": "", "e": "y", "f": "3", "a": ""}))

	inOrder, err := Parse("a=1,b")
	require.NoError(t, err)
	assert.Same(t, &inOrder.requirements[0], &inOrder.plan[0], "no second copy when key order will do")

	added := Everything().Add(req(t, "z", Equals, "1"), req(t, "a", DoesNotExist))
	assert.Equal(t, "z", added.plan[0].Key())
	assert.Equal(t, "!a,z=1", added.String())
}

// TestParseLongSelector: selectors longer than the parser's inline scratch space
// parse the same way.
func TestParseLongSelector(t *testing.T) {
	var parts, want []string
	for i := 19; i >= 0; i-- {
		key := fmt.Sprintf("k%02d", i)
		parts = append(parts, key+" in (c,b,a,b)")
		want = append([]string{key + " in (a,b,c)"}, want...)
	}
	sel, err := Parse(strings.Join(parts, ","))
	require.NoError(t, err)
	assert.Equal(t, strings.Join(want, ","), sel.String())
	assert.True(t, sel.Matches(Set{"k00": "a", "k01": "b", "k02": "c", "k03": "a", "k04": "a", "k05": "a",
		"k06": "a", "k07": "a", "k08": "a", "k09": "a", "k10": "a", "k11": "a", "k12": "a", "k13": "a",
		"k14": "a", "k15": "a", "k16": "a", "k17": "a", "k18": "a", "k19": "a"}))
}

// TestImpliesSet: a selector implies a set when it pins every label of the set
// to the set's value, so that every set it matches contains the set. Anything
// that lets a matching set lack a label, or carry another value, does not
// imply it.
func TestImpliesSet(t *testing.T) {
	tests := []struct {
		selector string
		set      Set
		want     bool
	}{
		{"app=web,tier=db", Set{"app": "web", "tier": "db"}, true},
		{"app=web,tier=db", Set{"app": "web"}, true},
		{"app==web", Set{"app": "web"}, true},
		{"app in (web)", Set{"app": "web"}, true},
		{"app in (web),app=web", Set{"app": "web"}, true},
		{"app,app=web", Set{"app": "web"}, true},
		{"app=web", Set{}, true},
		{"", Set{}, true},
		{"app=web", Set{"app": "web", "tier": "db"}, false},
		{"app=web", Set{"app": "api"}, false},
		{"app in (web,api)", Set{"app": "web"}, false},
		{"app", Set{"app": "web"}, false},
		{"app!=api", Set{"app": "web"}, false},
		{"", Set{"app": "web"}, false},
	}
	for _, tt := range tests {
		sel, err := Parse(tt.selector)
		require.NoError(t, err)
		assert.Equal(t, tt.want, sel.ImpliesSet(tt.set), "%q implies %v", tt.selector, tt.set)
	}
	assert.False(t, Nothing().ImpliesSet(Set{}), "Nothing matches no set to vouch for")
}

// TestImpliesSetAgreesWithMatching checks ImpliesSet against its meaning on
// every pair of a small universe of sets: when a selector implies a set, every
// set the selector matches is matched by the selector of that set too.
func TestImpliesSetAgreesWithMatching(t *testing.T) {
	var universe []Set
	values := []string{"", "a", "b"} // "" leaves the key out
	for _, x := range values {
		for _, y := range values {
			s := Set{}
			if x != "" {
				s["x"] = x
			}
			if y != "" {
				s["y"] = y
			}
			universe = append(universe, s)
		}
	}
	selectors := []string{"", "x=a", "x=a,y=b", "x in (a)", "x in (a,b)", "x", "!y", "x=a,y!=a", "x=a,x in (a,b)", "y==b"}
	implied := 0
	for _, text := range selectors {
		sel, err := Parse(text)
		require.NoError(t, err)
		for _, set := range universe {
			if !sel.ImpliesSet(set) {
				continue
			}
			implied++
			of := SelectorFromSet(set)
			for _, candidate := range universe {
				if sel.Matches(candidate) {
					assert.True(t, of.Matches(candidate), "%q implies %v, yet matches %v", text, set, candidate)
				}
			}
		}
	}
	assert.Greater(t, implied, len(selectors), "the universe must hold sets the selectors imply")
}
