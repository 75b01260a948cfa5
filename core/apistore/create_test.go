package apistore

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reconcilelab/rlab/core/api"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestCreateStampsSystemFields(t *testing.T) {
	h := newHarness(t)
	h.clock.Advance(1700 * time.Millisecond) // epoch + 2.2s
	in := newPod("default", "web", nil)
	in.Metadata.UID = "chosen-by-client"
	in.Metadata.Generation = 7
	in.Metadata.CreationTimestamp = api.NewTime(time.Unix(1, 0))

	out := h.create(in).(*api.Pod)

	m := out.Metadata
	assert.Regexp(t, uuidV4, m.UID, "the store draws a v4 uuid; a client's uid is ignored")
	assert.Equal(t, "1", m.ResourceVersion)
	assert.Equal(t, DefaultEpoch.Add(2*time.Second), m.CreationTimestamp.Time,
		"creationTimestamp comes from the clock, truncated to the second")
	assert.Zero(t, m.Generation, "pods carry no generation")
	assert.Equal(t, uint64(1), h.s.ResourceVersion())

	rs := h.create(newRS("default", "web", 2, map[string]string{"app": "web"})).(*api.ReplicaSet)
	assert.Equal(t, int64(1), rs.Metadata.Generation, "ReplicaSets start at generation 1")
	assert.Equal(t, "2", rs.Metadata.ResourceVersion, "one counter for every kind")
	rc := h.create(newRC("default", "web", 2, map[string]string{"app": "web"})).(*api.ReplicationController)
	assert.Equal(t, int64(1), rc.Metadata.Generation)
	assert.Equal(t, "3", rc.Metadata.ResourceVersion)
}

func TestCreateLeavesTheSentObjectAlone(t *testing.T) {
	// A sent object is the sender's no more, and the store may keep parts of
	// it in what it stores (copyForCreate), but the store never writes into
	// it: every field the create path sets (name, uid, resourceVersion,
	// times, defaults, status) is the stored object's own. Each object here
	// gives the create path something to set, the ReplicationController
	// defaults behind its template's pointer too.
	h := newHarness(t)
	h.clock.Advance(1700 * time.Millisecond)
	pod := newGeneratedPod("default", "web-", map[string]string{"app": "web"})
	pod.Metadata.UID = "chosen-by-client"
	pod.Metadata.CreationTimestamp = api.NewTime(time.Unix(1, 500))
	pod.Metadata.DeletionTimestamp = api.NewTimePtr(time.Unix(2, 500))
	pod.Status = api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: "True"}}}
	event := newEvent("default", "web.1")
	event.FirstTimestamp = api.NewTime(time.Unix(3, 500))
	for _, in := range []api.Object{
		pod,
		event,
		newRS("default", "web", 2, map[string]string{"app": "web"}),
		newRC("default", "web", 2, map[string]string{"app": "web"}),
	} {
		before := in.DeepCopyObject()
		out := h.create(in)
		require.NotSame(t, in, out)
		assert.Equal(t, before, in, "the store wrote into the %s it was sent", in.Kind())
		assert.NotEqual(t, in.Meta().UID, out.Meta().UID)
	}
	stored := h.s.Objects(api.KindPod, "default")
	require.Len(t, stored, 1)
	assert.NotEmpty(t, stored[0].Meta().Name, "the stored pod has the name drawn for it")
	assert.Equal(t, api.PodPending, stored[0].(*api.Pod).Status.Phase)
	assert.Equal(t, api.RestartAlways, stored[0].(*api.Pod).Spec.RestartPolicy)
	h.check()
}

func TestCreateDefaults(t *testing.T) {
	h := newHarness(t)

	pod := h.create(newPod("default", "web", nil)).(*api.Pod)
	assert.Equal(t, api.RestartAlways, pod.Spec.RestartPolicy)
	require.NotNil(t, pod.Spec.TerminationGracePeriodSeconds)
	assert.Equal(t, int64(30), *pod.Spec.TerminationGracePeriodSeconds)

	rsIn := newRS("default", "web", 0, map[string]string{"app": "web"})
	rsIn.Spec.Replicas = nil
	rs := h.create(rsIn).(*api.ReplicaSet)
	require.NotNil(t, rs.Spec.Replicas)
	assert.Equal(t, int32(1), *rs.Spec.Replicas, "replicas defaults to 1")
	assert.Equal(t, api.RestartAlways, rs.Spec.Template.Spec.RestartPolicy, "templates are defaulted too")
	assert.Equal(t, int64(30), *rs.Spec.Template.Spec.TerminationGracePeriodSeconds)

	rcIn := newRC("default", "web", 0, nil)
	rcIn.Spec.Replicas = nil
	rcIn.Spec.Template.Metadata.Labels = map[string]string{"app": "web"}
	rc := h.create(rcIn).(*api.ReplicationController)
	assert.Equal(t, map[string]string{"app": "web"}, rc.Spec.Selector, "an RC selects its template's labels by default")
	assert.Equal(t, map[string]string{"app": "web"}, rc.Metadata.Labels, "and wears them")
	assert.Equal(t, int32(1), *rc.Spec.Replicas)
}

func TestCreateResetsStatus(t *testing.T) {
	h := newHarness(t)

	in := newPod("default", "web", nil)
	in.Status = api.PodStatus{Phase: api.PodRunning, HostIP: "10.0.0.1",
		Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}
	pod := h.create(in).(*api.Pod)
	assert.Equal(t, api.PodStatus{Phase: api.PodPending}, pod.Status, "a new pod is Pending whatever it was sent with")

	rsIn := newRS("default", "web", 3, map[string]string{"app": "web"})
	rsIn.Status = api.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 3, ObservedGeneration: 9}
	rs := h.create(rsIn).(*api.ReplicaSet)
	assert.Equal(t, api.ReplicaSetStatus{}, rs.Status)

	rcIn := newRC("default", "web", 3, map[string]string{"app": "web"})
	rcIn.Status = api.ReplicationControllerStatus{Replicas: 3}
	rc := h.create(rcIn).(*api.ReplicationController)
	assert.Equal(t, api.ReplicationControllerStatus{}, rc.Status)

	nodeIn := newNode("node-1")
	nodeIn.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}
	node := h.create(nodeIn).(*api.Node)
	assert.Len(t, node.Status.Conditions, 1, "a kubelet registers its node with a status, which is kept")
}

func TestCreateClusterScopedKindHasNoNamespace(t *testing.T) {
	h := newHarness(t)
	in := newNode("node-1")
	in.Metadata.Namespace = "default"
	node := h.create(in)
	assert.Empty(t, node.Meta().Namespace)
	got, err := h.s.Get(api.KindNode, "", "node-1")
	require.NoError(t, err)
	assert.Same(t, node, got)
}

func TestCreateAlreadyExists(t *testing.T) {
	tests := []struct {
		obj  api.Object
		want string
	}{
		{newPod("default", "web-x", nil), `pods "web-x" already exists`},
		{newRS("default", "web", 1, map[string]string{"app": "web"}), `replicasets.apps "web" already exists`},
		{newRC("default", "web", 1, map[string]string{"app": "web"}), `replicationcontrollers "web" already exists`},
		{newNode("node-1"), `nodes "node-1" already exists`},
	}
	for _, tt := range tests {
		t.Run(string(tt.obj.Kind()), func(t *testing.T) {
			h := newHarness(t)
			h.create(tt.obj)
			rv := h.s.ResourceVersion()
			_, err := h.s.Create(tt.obj)
			se := statusErr(t, err)
			assert.True(t, IsAlreadyExists(err))
			assert.Equal(t, int32(409), se.Code)
			assert.Equal(t, tt.want, se.Message)
			assert.Equal(t, tt.obj.Meta().Name, se.Details.Name)
			assert.Equal(t, rv, h.s.ResourceVersion(), "a failed create writes nothing")
			h.check()
		})
	}
}

func TestCreateSameNameInAnotherNamespace(t *testing.T) {
	h := newHarness(t)
	h.create(newPod("default", "web", nil))
	h.create(newPod("other", "web", nil))
	assert.Equal(t, 2, h.s.Len(api.KindPod))
}

func TestCreateRejectsResourceVersion(t *testing.T) {
	h := newHarness(t)
	in := newPod("default", "web", nil)
	in.Metadata.ResourceVersion = "5"
	_, err := h.s.Create(in)
	se := statusErr(t, err)
	assert.Equal(t, int32(500), se.Code)
	assert.Equal(t, "resourceVersion should not be set on objects to be created", se.Message)
	h.check()
}

func TestGenerateNameSuffix(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a", 70) + "-"
	tests := []struct {
		generateName string
		wantBase     string
	}{
		{"web-", "web-"},
		{"web", "web"},
		{long, long[:58]},
	}
	for _, tt := range tests {
		for i := 0; i < 20; i++ {
			pod := h.create(newGeneratedPod("default", tt.generateName, nil))
			name := pod.Meta().Name
			require.True(t, strings.HasPrefix(name, tt.wantBase), name)
			suffix := name[len(tt.wantBase):]
			require.Len(t, suffix, 5, "five random characters follow the base")
			for _, c := range suffix {
				require.Contains(t, "bcdfghjklmnpqrstvwxz2456789", string(c),
					"the suffix alphabet has no vowels and no look-alikes")
			}
			require.LessOrEqual(t, len(name), 63)
			assert.Equal(t, tt.generateName, pod.Meta().GenerateName, "generateName is kept")
		}
	}
}

func TestGenerateNameRetriesOnCollision(t *testing.T) {
	pcg := rand.NewPCG(3, 4)
	h := newHarnessWith(t, Options{Rand: rand.New(pcg)})

	// What a fresh source with the same seed draws: the first name, then the
	// one a retry draws next.
	ref := rand.New(rand.NewPCG(3, 4))
	first := generateName(ref, "web-")
	second := generateName(ref, "web-")
	require.NotEqual(t, first, second)

	state, err := pcg.MarshalBinary()
	require.NoError(t, err)
	p1 := h.create(newGeneratedPod("default", "web-", nil))
	require.Equal(t, first, p1.Meta().Name)

	// Rewind the source: the next create draws the taken name first and must
	// draw again.
	require.NoError(t, pcg.UnmarshalBinary(state))
	p2 := h.create(newGeneratedPod("default", "web-", nil))
	assert.Equal(t, second, p2.Meta().Name, "a generated name that is taken is drawn again")
	assert.NotEqual(t, p1.Meta().UID, p2.Meta().UID)
}

// constSource always returns the same number, so every generated name is the
// same. (Not 0: rand's unbiasing loop would spin forever on it.)
type constSource struct{}

func (constSource) Uint64() uint64 { return 1 << 63 }

func TestGenerateNameGivesUpWhenEveryDrawIsTaken(t *testing.T) {
	h := newHarnessWith(t, Options{Rand: rand.New(constSource{})})
	p1 := h.create(newGeneratedPod("default", "web-", nil))
	taken := p1.Meta().Name
	require.Equal(t, generateName(rand.New(constSource{}), "web-"), taken)

	rv := h.s.ResourceVersion()
	_, err := h.s.Create(newGeneratedPod("default", "web-", nil))
	se := statusErr(t, err)
	assert.True(t, IsAlreadyExists(err))
	assert.Equal(t, `pods "`+taken+`" already exists, the server was not able to generate a unique name for the object`, se.Message)
	assert.Equal(t, int32(1), se.Details.RetryAfterSeconds)
	assert.Equal(t, rv, h.s.ResourceVersion())
	h.check()
}

func TestCreateNamespaceFromRequest(t *testing.T) {
	h := newHarness(t)
	resp := h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Namespace: "team-a", Object: newPod("", "web", nil)})
	require.NoError(t, resp.Err)
	assert.Equal(t, "team-a", resp.Object.Meta().Namespace, "an object without a namespace takes the request's")

	resp = h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Namespace: "team-b", Object: newPod("team-a", "web2", nil)})
	assert.True(t, IsBadRequest(resp.Err))
	assert.Equal(t, "the namespace of the provided object does not match the namespace sent on the request", resp.Err.Error())

	resp = h.s.Serve(Request{Verb: VerbCreate, Kind: api.KindReplicaSet, Object: newPod("team-a", "web3", nil)})
	assert.True(t, IsBadRequest(resp.Err), "the object must be of the request's kind")
	h.check()
}

// uidByteByByte is the definition newUID must agree with: the two words
// drawn, most significant byte first, with the version and variant bits
// set, written two hex digits a byte with a dash before bytes 4, 6, 8 and
// 10.
func uidByteByByte(r *rand.Rand) string {
	var b [16]byte
	hi, lo := r.Uint64(), r.Uint64()
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out strings.Builder
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out.WriteByte('-')
		}
		out.WriteByte("0123456789abcdef"[c>>4])
		out.WriteByte("0123456789abcdef"[c&0xf])
	}
	return out.String()
}

// TestUIDsAreTheDrawnBitsInOrder holds newUID, which writes each word's
// digits straight to their places, to the byte-by-byte definition, and to
// the form of a version 4 UUID, over enough draws to set every digit to
// every value.
func TestUIDsAreTheDrawnBitsInOrder(t *testing.T) {
	got, want := rand.New(rand.NewPCG(7, 11)), rand.New(rand.NewPCG(7, 11))
	for range 2000 {
		uid := newUID(got)
		require.Equal(t, uidByteByByte(want), uid)
		require.Regexp(t, uuidV4, uid)
	}
}

// TestTruncTimeIsUTCTruncatedToTheSecond holds truncTime, which leaves a time
// of whole seconds as it is but for its zone, to its definition, read in UTC
// and truncated to the second, for times with and without fractions, in
// other zones, before 1970 and before 1885 (where a time's seconds are kept
// differently), with a monotonic clock reading, and zero.
func TestTruncTimeIsUTCTruncatedToTheSecond(t *testing.T) {
	east := time.FixedZone("east", 5*3600+1800)
	times := []time.Time{
		{},
		time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC),
		time.Date(2024, 3, 1, 12, 0, 0, 1, time.UTC),
		time.Date(2024, 3, 1, 12, 0, 59, 999_999_999, east),
		time.Date(2024, 3, 1, 12, 0, 0, 0, east),
		time.Date(1969, 12, 31, 23, 59, 59, 500_000_000, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1800, 1, 1, 0, 0, 0, 0, east),
		time.Date(1800, 1, 1, 0, 0, 0, 250, time.UTC),
		time.Now(),
		wholeSecondNow(),
	}
	require.Contains(t, times[len(times)-1].String(), "m=", "the last time keeps a monotonic reading")
	for i, tm := range times {
		want := api.Time{}
		if !tm.IsZero() {
			want = api.Time{Time: tm.UTC().Truncate(time.Second)}
		}
		got := truncTime(api.Time{Time: tm})
		assert.True(t, want == got, "time %d (%v): got %#v, want %#v", i, tm, got.Time, want.Time)
	}
}

// wholeSecondNow is now, moved back to the start of its second by Add, which
// keeps the monotonic clock reading (Truncate would drop it).
func wholeSecondNow() time.Time {
	now := time.Now()
	return now.Add(-time.Duration(now.Nanosecond()))
}
