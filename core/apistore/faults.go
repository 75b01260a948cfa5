package apistore

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// FaultKind is the error an injected fault answers with.
type FaultKind string

// The fault kinds. Each makes the request fail the way a real cluster fails it.
const (
	// FaultServer is a 500 InternalError, as when etcd times out.
	FaultServer FaultKind = "server"
	// FaultQuota is a 403 Forbidden from quota admission: "exceeded quota". The
	// message names the object (for a create with generateName, the generated
	// name), so the Events recorded for such failures do not merge.
	FaultQuota FaultKind = "quota"
	// FaultConflict is a 409 Conflict, as if someone else had written first.
	FaultConflict FaultKind = "conflict"
	// FaultNamespaceTerminating is a 403 Forbidden with the NamespaceTerminating
	// cause, as when the namespace is being deleted. The replication manager
	// counts such a create as a success.
	FaultNamespaceTerminating FaultKind = "namespace-terminating"
	// FaultUnavailable is a 503 ServiceUnavailable.
	FaultUnavailable FaultKind = "unavailable"
	// FaultNotFound is a 404 NotFound for the named object.
	FaultNotFound FaultKind = "notfound"
	// FaultExpired is a 410 Expired: "too old resource version". On a watch it
	// makes the watcher relist.
	FaultExpired FaultKind = "expired"
)

// FaultKinds lists every fault kind, for help texts and did-you-mean.
var FaultKinds = []FaultKind{FaultServer, FaultQuota, FaultConflict, FaultNamespaceTerminating,
	FaultUnavailable, FaultNotFound, FaultExpired}

// FaultRule makes matching requests fail. A request matches when its verb and
// resource equal the rule's (an empty Verb or Resource matches any). Of the
// matching requests, the first After go through; then the rule fails the next
// Count of them, or every one while Always is set, until it is healed.
type FaultRule struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// ID identifies the rule; Add assigns it.
	ID int

	Verb Verb
	// Resource is the resource with its subresource, as Request.Resource prints
	// it: "pods", "replicasets/status", "pods/binding".
	Resource string

	// Count is how many requests the rule fails before it removes itself.
	Count int
	// Always makes the rule fail every matching request until healed; Count is
	// then ignored.
	Always bool
	// After lets this many matching requests through before the rule starts
	// failing them.
	After int

	// Error is the kind of failure; empty means FaultServer.
	Error FaultKind
	// Message replaces the default explanation of a server or unavailable
	// failure.
	Message string
	// Quota names the quota of a FaultQuota failure; empty means
	// "compute-resources".
	Quota string
	// QuotaLimit is the limit the quota message reports; 0 means the number of
	// objects of the kind in the namespace (a quota that is exactly full).
	QuotaLimit int

	// Seen counts the matching requests so far, failed or not.
	Seen int
	// Fired counts the requests the rule has failed.
	Fired int
}

// String describes the rule as the faults panel shows it:
// "create pods: quota ×3 after 2 (fired 1)".
func (r FaultRule) String() string {
	verb, res := string(r.Verb), r.Resource
	if verb == "" {
		verb = "*"
	}
	if res == "" {
		res = "*"
	}
	kind := r.Error
	if kind == "" {
		kind = FaultServer
	}
	s := verb + " " + res + ": " + string(kind)
	if r.Always {
		s += " always"
	} else {
		s += " ×" + strconv.Itoa(r.Count)
	}
	if r.After > 0 {
		s += " after " + strconv.Itoa(r.After)
	}
	if r.Fired > 0 {
		s += " (fired " + strconv.Itoa(r.Fired) + ")"
	}
	return s
}

func (r *FaultRule) matches(verb Verb, resource string) bool {
	return (r.Verb == "" || r.Verb == verb) && (r.Resource == "" || r.Resource == resource)
}

// exhausted reports whether a counted rule has failed all it was meant to.
func (r *FaultRule) exhausted() bool { return !r.Always && r.Fired >= r.Count }

// Faults is the set of active fault rules. It is consulted on every request
// before the request is applied, so a failed request changes nothing. Its
// counters are part of the store's state: snapshots capture them, so stepping
// back and replaying fails the same requests again.
type Faults struct {
	// rules are the active rules, in the order they were added. A request is
	// failed by the first rule that is due; every matching rule counts it.
	rules []FaultRule
	// nextID is the ID the next added rule gets.
	nextID int
}

// Add activates a rule and returns it with its ID. A rule must fail at least
// one request (Count ≥ 1, or Always), may not let a negative number through, and
// must name a known fault kind.
func (f *Faults) Add(r FaultRule) (FaultRule, error) {
	if r.Error == "" {
		r.Error = FaultServer
	}
	if !slices.Contains(FaultKinds, r.Error) {
		names := make([]string, len(FaultKinds))
		for i, k := range FaultKinds {
			names[i] = string(k)
		}
		return FaultRule{}, errors.New("unknown fault " + strconv.Quote(string(r.Error)) +
			"; known faults: " + strings.Join(names, ", "))
	}
	if !r.Always && r.Count < 1 {
		return FaultRule{}, errors.New("a fault needs a count of at least 1, or always")
	}
	if r.After < 0 {
		return FaultRule{}, errors.New("a fault's after must not be negative")
	}
	f.nextID++
	r.ID = f.nextID
	r.Seen, r.Fired = 0, 0
	f.rules = append(f.rules, r)
	return r, nil
}

// Heal removes the rules for a verb and resource; an empty verb or resource
// heals rules of any verb or resource, so Heal("", "") heals everything. It
// returns how many rules it removed.
func (f *Faults) Heal(verb Verb, resource string) int {
	before := len(f.rules)
	f.rules = slices.DeleteFunc(f.rules, func(r FaultRule) bool {
		return (verb == "" || r.Verb == verb) && (resource == "" || r.Resource == resource)
	})
	return before - len(f.rules)
}

// HealAll removes every rule and returns how many there were.
func (f *Faults) HealAll() int { return f.Heal("", "") }

// Rules returns a copy of the active rules, in the order they were added.
func (f *Faults) Rules() []FaultRule { return slices.Clone(f.rules) }

// Len returns the number of active rules.
func (f *Faults) Len() int { return len(f.rules) }

// fire counts a request against every matching rule and returns (a copy of)
// the first one that is due, if any. Rules that have failed all they were
// meant to are removed.
func (f *Faults) fire(verb Verb, resource string) (FaultRule, bool) {
	var fired FaultRule
	found := false
	for i := range f.rules {
		r := &f.rules[i]
		if !r.matches(verb, resource) {
			continue
		}
		r.Seen++
		if !found && r.Seen > r.After && !r.exhausted() {
			r.Fired++
			fired, found = *r, true
		}
	}
	if found && fired.exhausted() {
		f.rules = slices.DeleteFunc(f.rules, func(r FaultRule) bool { return r.ID == fired.ID })
	}
	return fired, found
}

// clone returns a copy that shares nothing with f, for snapshots.
func (f *Faults) clone() Faults {
	return Faults{rules: slices.Clone(f.rules), nextID: f.nextID}
}

// faultError builds the error a fired rule answers with.
func (s *Store) faultError(rule FaultRule, info *kindInfo, req *Request, name, shownName string) *StatusError {
	switch rule.Error {
	case FaultQuota:
		quota := rule.Quota
		if quota == "" {
			quota = "compute-resources"
		}
		resource := "pods"
		if info.kind.Resource() != "pods" {
			resource = "count/" + info.qualifiedResource
		}
		sp := s.kinds[info.index].spaces.Read()[namespaceOf(info, req)]
		used := len(sp.Read())
		limit := rule.QuotaLimit
		if limit == 0 {
			limit = used
		}
		return newForbidden(info, name, "exceeded quota: "+quota+
			", requested: "+resource+"=1, used: "+resource+"="+strconv.Itoa(used)+
			", limited: "+resource+"="+strconv.Itoa(limit))
	case FaultConflict:
		return newOptimisticConflict(info, name)
	case FaultNamespaceTerminating:
		return newNamespaceTerminating(info, shownName, namespaceOf(info, req))
	case FaultUnavailable:
		msg := rule.Message
		if msg == "" {
			msg = "the server is currently unable to handle the request"
		}
		return newServiceUnavailable(msg)
	case FaultNotFound:
		return newNotFound(info, name)
	case FaultExpired:
		return newExpired(req.List().ResourceVersion, s.rv)
	}
	msg := rule.Message
	if msg == "" {
		msg = "etcdserver: request timed out"
	}
	return newInternalError(msg)
}

// namespaceOf returns the namespace a request is about.
func namespaceOf(info *kindInfo, req *Request) string {
	if !info.namespaced {
		return ""
	}
	if req.Namespace == "" && req.Object != nil {
		return req.Object.Meta().Namespace
	}
	return req.Namespace
}
