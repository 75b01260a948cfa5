package record

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLRUForgetsTheLeastRecentlyUsed(t *testing.T) {
	c := newLRU[int](3)
	c.Add("a", 1)
	c.Add("b", 2)
	c.Add("c", 3)
	_, ok := c.Get("a") // a is now the most recent
	require.True(t, ok)
	c.Add("d", 4) // b goes
	checkLRU(t, c)

	_, ok = c.Get("b")
	assert.False(t, ok, "b was the least recently used")
	for _, k := range []string{"a", "c", "d"} {
		_, ok := c.Get(k)
		assert.True(t, ok, "%s stays", k)
	}
	assert.Equal(t, 3, c.Len())
}

func TestLRUAddOfAnExistingKeyRefreshesIt(t *testing.T) {
	c := newLRU[int](2)
	c.Add("a", 1)
	c.Add("b", 2)
	c.Add("a", 10)
	c.Add("c", 3) // b goes, not a
	v, ok := c.Get("a")
	assert.True(t, ok)
	assert.Equal(t, 10, v)
	_, ok = c.Get("b")
	assert.False(t, ok)
}

func TestLRUCompactionKeepsTheOrder(t *testing.T) {
	c := newLRU[int](5)
	for i := 0; i < 5; i++ {
		c.Add(strconv.Itoa(i), i)
	}
	// Many uses of the same keys pile up stale log records and compact.
	for round := 0; round < 100; round++ {
		c.Get("3")
		c.Get("1")
		checkLRU(t, c)
	}
	assert.Less(t, len(c.log)-c.head, 2*c.Len()+17, "the log stays bounded")
	c.Add("5", 5) // 0 goes
	c.Add("6", 6) // 2 goes
	c.Add("7", 7) // 4 goes
	checkLRU(t, c)
	for _, k := range []string{"0", "2", "4"} {
		_, ok := c.entries[k]
		assert.False(t, ok, "%s was least recently used", k)
	}
	for _, k := range []string{"1", "3", "5", "6", "7"} {
		_, ok := c.entries[k]
		assert.True(t, ok, "%s stays", k)
	}
}

func TestLRUSnapshotIsIsolated(t *testing.T) {
	c := newLRU[int](3)
	c.Add("a", 1)
	c.Add("b", 2)
	s := c.snapshot()
	c.Add("c", 3)
	c.Add("d", 4)
	c.Add("a", 100)
	checkLRU(t, c)

	for i := 0; i < 2; i++ {
		c.restore(s)
		checkLRU(t, c)
		assert.Equal(t, 2, c.Len())
		v, _ := c.Get("a")
		assert.Equal(t, 1, v)
		c.Add("x", 9)
		c.Add("y", 9)
		checkLRU(t, c)
		_, ok := c.entries["b"]
		assert.False(t, ok, "b is the least recently used after the restore")
	}
}
