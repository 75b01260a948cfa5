package sim

import (
	"sort"
	"time"
)

// StepLog is the steps a session keeps for a learner to read, oldest first,
// numbered one after the other: at least the last Keep steps pushed.
//
// The newest steps, up to a chunk of them, are kept as they ran. Once a
// chunk is full it is packed into bytes, as Go's execution tracer packs its
// events: numbers as varints, each as a difference where that is small, and
// every string as its place in a table of the chunk's strings, each kept
// once. A packed step costs about fifty bytes, where a StepResult is 272
// and the data its event carried (whole objects, in old versions nothing
// else keeps) as much again; and the bytes hold no pointers, so the garbage
// collector never reads them. A 10,000-pod world runs 300,000 steps to rest;
// its 50,000 kept steps took 26 MiB of a page's heap as they ran, and take
// about 3 MiB packed.
//
// A step read back from a pack is the step that ran, except that its
// event's Data is the data's Gist (see GistOf): all that its trace line,
// its hash and the picture of the loop read. Once the steps after
// the oldest pack are enough to keep, that pack is dropped whole.
type StepLog struct {
	// Keep is how many of the newest steps the log is sure to keep.
	Keep int

	// packs hold the older steps; open the newest, as they ran, with room
	// for a chunk. The steps of each are numbered one after the other.
	packs []*stepPack
	open  []StepResult
	// refs and hands hold the open steps' Touched and Handed lists: a
	// step's own are good only until the next step starts (see Arena).
	// They are used again once their chunk is packed; a step read back
	// from the open chunk (At) comes with lists of its own, so nothing
	// outside the log holds them.
	refs  []Ref
	hands []Handoff
	// n counts the steps kept.
	n int

	// index finds a string in strs, the table of the pack being made, and
	// buf holds its bytes; buf is used again for the next pack. recent
	// remembers strings just packed, in front of index (see str).
	index  map[string]int
	buf    []byte
	strs   []string
	recent [recentStrings]packedString
}

// recentStrings is how many strings a StepLog remembers in front of its
// index: a power of two, and enough that a chunk's actors, kinds, verbs
// and the names of the objects in flight mostly stay.
const recentStrings = 256

// packedString is a string of the pack being made, with its place in the
// pack's table.
type packedString struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	s string
	i int
}

// stepPack is a chunk of packed steps.
type stepPack struct {
	// first is the number of the first step; at is its time, from which
	// the others' are differences.
	first uint64
	at    time.Duration
	// offsets[i] is where step first+i begins in data.
	offsets []uint32
	data    []byte
	// strs are the strings the steps name, each once; a step names one by
	// its index, and 0 is the empty string.
	strs []string
}

// Chunk is how many steps are kept as they ran before they are packed: an
// eighth of Keep, so that what is kept beyond Keep stays small, and at most
// 4096 (about a megabyte of steps).
func (l *StepLog) Chunk() int { return max(1, min(4096, l.Keep/8)) }

// Len returns how many steps are kept.
func (l *StepLog) Len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// N returns the number of the i-th step kept, from 0, oldest first,
// without reading the rest of it.
func (l *StepLog) N(i int) uint64 {
	for _, p := range l.packs {
		if i < len(p.offsets) {
			return p.first + uint64(i)
		}
		i -= len(p.offsets)
	}
	return l.open[i].N
}

// At returns the i-th step kept, from 0, oldest first, with lists of its
// own. A packed step's event carries its data's gist (GistOf) in place of
// the data.
func (l *StepLog) At(i int) StepResult {
	for _, p := range l.packs {
		if i < len(p.offsets) {
			return p.step(i)
		}
		i -= len(p.offsets)
	}
	return l.open[i].Kept()
}

// Index returns the index of the first step kept numbered n or more, or
// Len if there is none.
func (l *StepLog) Index(n uint64) int {
	return sort.Search(l.Len(), func(i int) bool { return l.N(i) >= n })
}

// Push keeps a copy of a new step. The open chunk is packed once it is
// full, or when the new step does not follow its last; the oldest pack is
// dropped once the steps after it are enough to keep. The step comes by
// pointer and is copied once, into the chunk: by value it was copied twice
// more on every step a session keeps.
func (l *StepLog) Push(res *StepResult) {
	if k := len(l.open); k == l.Chunk() || k > 0 && l.open[k-1].N+1 != res.N {
		l.seal()
	}
	if l.open == nil {
		l.open = make([]StepResult, 0, l.Chunk())
	}
	l.open = append(l.open, *res)
	kept := &l.open[len(l.open)-1]
	kept.Touched, l.refs = keepList(kept.Touched, l.refs)
	kept.Handed, l.hands = keepList(kept.Handed, l.hands)
	l.n++
	for len(l.packs) > 0 && l.n-len(l.packs[0].offsets) >= l.Keep {
		l.n -= len(l.packs[0].offsets)
		l.packs[0] = nil
		l.packs = l.packs[1:]
	}
}

// Truncate keeps the first n steps and drops the others, the newest.
func (l *StepLog) Truncate(n int) {
	if n >= l.n {
		return
	}
	if packed := l.n - len(l.open); n >= packed {
		clear(l.open[n-packed:])
		l.open = l.open[:n-packed]
		l.n = n
		return
	}
	// The cut is inside the packs: the open chunk goes, and so do the packs
	// after the one the cut is in, which keeps its steps before it.
	clear(l.open)
	l.open = l.open[:0]
	l.n = n
	for i, p := range l.packs {
		if n < len(p.offsets) {
			p.data, p.offsets = p.data[:p.offsets[n]], p.offsets[:n]
			if n == 0 {
				i--
			}
			clear(l.packs[i+1:])
			l.packs = l.packs[:i+1]
			return
		}
		n -= len(p.offsets)
	}
}

// seal packs the open chunk and empties it, for the newest steps to come.
func (l *StepLog) seal() {
	// A new table for each pack: clearing a map would link the runtime's
	// map clearing into main.wasm, for nothing measurable.
	l.index = make(map[string]int, len(l.index))
	l.strs, l.recent = []string{""}, [recentStrings]packedString{}
	p := &stepPack{first: l.open[0].N, at: l.open[0].At, offsets: make([]uint32, len(l.open))}
	buf := l.buf[:0]
	for i := range l.open {
		p.offsets[i] = uint32(len(buf))
		buf = l.packStep(buf, &l.open[i], p.at)
	}
	// The pack keeps only the bytes it uses; the buffer is used again.
	l.buf = buf
	p.data, p.strs = append([]byte(nil), buf...), l.strs
	l.packs = append(l.packs, p)
	clear(l.open)
	l.open = l.open[:0]
	l.refs, l.hands = l.refs[:0], l.hands[:0]
}

// keepList copies list to the end of buf and returns the copy, capped at
// its length so that appending to it copies, and buf.
func keepList[T any](list, buf []T) ([]T, []T) {
	if len(list) == 0 {
		return nil, buf
	}
	start := len(buf)
	buf = append(buf, list...)
	return buf[start:len(buf):len(buf)], buf
}

// A packed step is its numbers, as zigzag varints, then its strings, as
// varints of their places in the table, each in a fixed order; its Touched
// and Handed lists follow, as many as its numbers say. A step's fields are
// gathered into arrays and packed in one loop, rather than one call a
// field, because every call is a hundred bytes of main.wasm. The bytes go
// to a buffer the caller holds, and back: appending to l.buf itself would
// store the slice in the heap at every number, and while the collector
// marks, each such store runs its write barrier (a sixth of packing's time
// under js/wasm).
const (
	packedNumbers = 9 + sentenceNumbers
	packedStrings = 9 + sentenceStrings
)

func (l *StepLog) packStep(buf []byte, s *StepResult, at time.Duration) []byte {
	ev, sen := &s.Event, &s.Summary
	g := GistOf(*ev)
	var flags int64
	if ev.Background {
		flags |= 1
	}
	if ev.cancelled {
		flags |= 2
	}
	var choices int64
	for i, c := range sen.choices {
		choices |= int64(c) << (8 * i)
	}
	nums := [packedNumbers]int64{
		int64(s.At - at), int64(ev.At - s.At), int64(ev.Seq), int64(s.Hash), flags | int64(g.Carried)<<2,
		int64(sen.form), int64(sen.tail), choices, int64(len(s.Touched)<<16 | len(s.Handed)),
	}
	copy(nums[9:], sen.nums[:])
	for _, v := range nums {
		buf = appendUvarint(buf, uint64(v<<1)^uint64(v>>63))
	}
	strs := [packedStrings]string{ev.To, ev.Kind, s.Actor, s.Models, g.From, g.Verb, g.What, g.Name, g.Failed}
	copy(strs[9:], sen.strs[:])
	for _, v := range strs {
		buf = appendUvarint(buf, l.str(v))
	}
	for _, r := range s.Touched {
		buf = appendUvarint(buf, l.str(r.Kind))
		buf = appendUvarint(buf, l.str(r.Namespace))
		buf = appendUvarint(buf, l.str(r.Name))
	}
	for _, h := range s.Handed {
		buf = appendUvarint(buf, l.str(h.To))
		buf = appendUvarint(buf, l.str(h.What))
	}
	return buf
}

// appendUvarint appends v as a varint: seven bits a byte, the low bits
// first, the high bit set on every byte but the last (as encoding/binary
// writes one; main.wasm does not otherwise link it).
func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// str returns a string's index in the pack's table, adding it the first
// time. A step names twenty strings or more, most of them named by the
// steps just before (its actor, its kind, the pod in flight): a slot of
// recent, chosen by the string's length and two of its bytes, answers most
// of them with a comparison, where the map would hash every byte. Under
// js/wasm, whose runtime hashes strings without the AES instructions, the
// map's lookups were a third of packing's time.
func (l *StepLog) str(v string) uint64 {
	if v == "" {
		return 0
	}
	n := len(v)
	slot := &l.recent[(n*37+int(v[n-1])*7+int(v[n/2]))&(recentStrings-1)]
	if slot.s == v {
		return uint64(slot.i)
	}
	i, ok := l.index[v]
	if !ok {
		i = len(l.strs)
		l.strs = append(l.strs, v)
		l.index[v] = i
	}
	*slot = packedString{s: v, i: i}
	return uint64(i)
}

// step reads back the pack's i-th step, from 0, with its event's Data
// replaced by its Gist.
func (p *stepPack) step(i int) StepResult {
	b, at := p.data[p.offsets[i]:], 0
	next := func() uint64 {
		var v uint64
		for shift := 0; ; shift += 7 {
			c := b[at]
			at++
			v |= uint64(c&0x7f) << shift
			if c < 0x80 {
				return v
			}
		}
	}
	var nums [packedNumbers]int64
	for j := range nums {
		u := next()
		nums[j] = int64(u>>1) ^ -int64(u&1)
	}
	var strs [packedStrings]string
	for j := range strs {
		strs[j] = p.strs[next()]
	}
	s := StepResult{N: p.first + uint64(i), At: p.at + time.Duration(nums[0]), Hash: uint64(nums[3]), Report: Report{Actor: strs[2], Models: strs[3]}}
	flags := nums[4]
	s.Event = Event{At: s.At + time.Duration(nums[1]), Seq: uint64(nums[2]), To: strs[0], Kind: strs[1], Background: flags&1 != 0, cancelled: flags&2 != 0}
	if carried := Carried(flags >> 2); carried != 0 {
		s.Event.Data = Gist{Carried: carried, From: strs[4], Verb: strs[5], What: strs[6], Name: strs[7], Failed: strs[8]}
	}
	sen := &s.Summary
	sen.form, sen.tail = formID(nums[5]), formID(nums[6])
	for j := range sen.choices {
		sen.choices[j] = uint8(nums[7] >> (8 * j))
	}
	copy(sen.nums[:], nums[9:])
	copy(sen.strs[:], strs[9:])
	if n := nums[8] >> 16; n > 0 {
		s.Touched = make([]Ref, n)
		for j := range s.Touched {
			s.Touched[j] = Ref{Kind: p.strs[next()], Namespace: p.strs[next()], Name: p.strs[next()]}
		}
	}
	if n := nums[8] & 0xffff; n > 0 {
		s.Handed = make([]Handoff, n)
		for j := range s.Handed {
			s.Handed[j] = Handoff{To: p.strs[next()], What: p.strs[next()]}
		}
	}
	return s
}
