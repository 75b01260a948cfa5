package apistore

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/reconcilelab/rlab/core/api"
)

func TestListWatchDeliveryThatOvertakesItsAnswerOpensTheWatch(t *testing.T) {
	lw := NewListWatch(api.KindPod, "")
	lw.request = 7 // a watch request in flight

	d := WatchDelivery{WatchID: 7}
	assert.True(t, lw.Delivers(d, true), "while opening, the watch being opened delivers")
	ok, opened := lw.Accept(d, true)
	assert.True(t, ok)
	assert.True(t, opened)
	assert.Equal(t, uint64(7), lw.WatchID())
	assert.Zero(t, lw.Request(), "the answer still on its way is no longer awaited")
	assert.False(t, lw.Owns(&Reply{ID: 7, Request: &Request{Kind: api.KindPod}}))
}

func TestListWatchDeliveryOfAnotherWatchIsStale(t *testing.T) {
	lw := NewListWatch(api.KindPod, "")
	lw.request = 7
	d := WatchDelivery{WatchID: 7}
	assert.False(t, lw.Delivers(d, false), "a request that is not a watch opens nothing")
	ok, opened := lw.Accept(d, false)
	assert.False(t, ok)
	assert.False(t, opened)

	lw.Answered()
	lw.Opened(9)
	ok, opened = lw.Accept(WatchDelivery{WatchID: 8}, false)
	assert.False(t, ok, "a delivery of a closed watch is stale")
	assert.False(t, opened)
	ok, _ = lw.Accept(WatchDelivery{WatchID: 9}, false)
	assert.True(t, ok)
}

func TestListWatchOwnsOnlyTheAnswerToItsRequest(t *testing.T) {
	lw := NewListWatch(api.KindNode, "")
	lw.request = 3
	assert.True(t, lw.Owns(&Reply{ID: 3, Request: &Request{Kind: api.KindNode}}))
	assert.False(t, lw.Owns(&Reply{ID: 4, Request: &Request{Kind: api.KindNode}}))
	assert.False(t, lw.Owns(&Reply{ID: 3, Request: &Request{Kind: api.KindPod}}))
	lw.Answered()
	assert.False(t, lw.Owns(&Reply{ID: 0, Request: &Request{Kind: api.KindNode}}), "nothing in flight owns nothing")
	lw.Observed(42)
	assert.Equal(t, uint64(42), lw.RV())
}
