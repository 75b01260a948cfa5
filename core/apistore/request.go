package apistore

import (
	"strconv"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// Verb is what a request asks the API server to do, spelled as Kubernetes
// spells it in audit logs and RBAC rules. Writing to a subresource keeps the
// verb of the write: a status update is "update" on "replicasets/status", and
// binding a pod to a node is "create" on "pods/binding".
type Verb string

// The verbs the store serves.
const (
	VerbCreate Verb = "create"
	VerbGet    Verb = "get"
	VerbList   Verb = "list"
	VerbWatch  Verb = "watch"
	VerbUpdate Verb = "update"
	VerbPatch  Verb = "patch"
	VerbDelete Verb = "delete"
)

// Verbs lists every verb, for help texts and conformance tests.
var Verbs = []Verb{VerbCreate, VerbGet, VerbList, VerbWatch, VerbUpdate, VerbPatch, VerbDelete}

// The subresources the store serves.
const (
	// SubresourceStatus is where controllers and kubelets write status.
	SubresourceStatus = "status"
	// SubresourceBinding is where the scheduler binds a pod to a node.
	SubresourceBinding = "binding"
)

// Request is one API call as a plain value, so that it can travel as a
// simulation event, be printed in the requests view and be compared in tests.
// Which fields matter depends on the verb; the others are ignored.
type Request struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	Verb Verb
	Kind api.Kind
	// Subresource is "", SubresourceStatus (update) or SubresourceBinding (create
	// on pods).
	Subresource string

	// Namespace is the namespace of the request's URL. For create and update it
	// may be left empty when the object names its namespace; if both are set
	// they must agree. It is ignored for cluster-scoped kinds (nodes). For list
	// and watch, "" means all namespaces.
	Namespace string
	// Name is the object's name for get, patch, delete and bind, and may be left
	// empty for update (the object names itself).
	Name string

	// Object is the object to create or update. It is the sender's no more
	// once sent: the sender must not change it, for the store may keep parts
	// of it in what it stores (see copyForCreate), and a request in flight is
	// shared with the agenda's snapshots. The store never changes it either.
	Object api.Object
	// Patch is the metadata patch of a patch request.
	Patch *MetaPatch
	// NodeName is the node a pods/binding request binds the pod to.
	NodeName string

	// DeleteOptions qualify a delete; nil means the zero options.
	//
	// The options are pointers because few requests have any: a request in
	// flight is held whole until it is served (and its reply points at
	// it), and the two, held by value, were half of its 240 bytes, in a
	// world of 10,000 pods that sends tens of thousands of requests.
	DeleteOptions *DeleteOptions
	// ListOptions qualify a list or a watch; nil means the zero options.
	ListOptions *ListOptions
}

// Delete returns the request's delete options, the zero ones if it has
// none.
func (r Request) Delete() DeleteOptions {
	if r.DeleteOptions == nil {
		return DeleteOptions{}
	}
	return *r.DeleteOptions
}

// List returns the request's list options, the zero ones if it has none.
func (r Request) List() ListOptions {
	if r.ListOptions == nil {
		return ListOptions{}
	}
	return *r.ListOptions
}

// ListOptions qualify a list or a watch.
type ListOptions struct {
	// LabelSelector filters a list. The zero Selector matches everything.
	// Watches are not filtered by label.
	LabelSelector labels.Selector
	// ResourceVersion is where a watch starts: it returns the events after it.
	// Lists ignore it and always return the current state.
	ResourceVersion uint64
}

// Resource returns the resource the request is about, as the requests view and
// fault rules name it: "pods", "replicasets/status", "pods/binding".
func (r Request) Resource() string {
	res := r.Kind.Resource()
	if res == "" {
		res = string(r.Kind)
	}
	if r.Subresource == "" {
		return res
	}
	// The subresources the store serves are named once per kind: every status
	// write and every binding names its resource in the log and its step.
	if info := infoFor(r.Kind); info != nil {
		switch r.Subresource {
		case SubresourceStatus:
			return info.statusResource
		case SubresourceBinding:
			return info.bindingResource
		}
	}
	return res + "/" + r.Subresource
}

// String describes the request in one line: "create pods default/web-", "delete
// pods default/web-7xk2p", "list replicasets (all namespaces)".
func (r Request) String() string {
	s := string(r.Verb) + " " + r.Resource()
	ns, name := r.Namespace, r.Name
	if r.Object != nil {
		m := r.Object.Meta()
		if ns == "" {
			ns = m.Namespace
		}
		if name == "" {
			name = m.Name
			if name == "" {
				name = m.GenerateName
			}
		}
	}
	switch {
	case name != "":
		s += " " + api.Key(ns, name)
	case ns != "":
		s += " -n " + ns
	case r.Verb == VerbList || r.Verb == VerbWatch:
		s += " (all namespaces)"
	}
	if r.Verb == VerbWatch {
		s += " from " + strconv.FormatUint(r.List().ResourceVersion, 10)
	}
	return s
}

// Response is the outcome of one request, as a plain value.
type Response struct {
	// Object is the object the request produced or read: the created, updated,
	// patched or bound object as stored; for a delete, the object as it now is
	// (marked with a deletionTimestamp) or, if it was removed, as it last was.
	// It is shared and read-only: DeepCopyObject it before changing anything.
	Object api.Object
	// Items are the listed objects, sorted by key; shared and read-only.
	Items []api.Object
	// Events are, for a watch, the events after the requested resourceVersion;
	// for a write, the watch events the write caused (none for a no-op, two for a
	// pod deleted with grace 0: MODIFIED, which sets its deletionTimestamp, then
	// DELETED). The slice is shared and read-only.
	Events []WatchEvent
	// ResourceVersion is the global resourceVersion a list was taken at; the
	// resourceVersion of the object read or written (of the removal, for a
	// delete that removed); or of the last event a watch returned (the requested
	// one when it returned none).
	ResourceVersion uint64
	// Deleted tells whether a delete (or an update that removed the last
	// finalizer of an object being deleted) removed the object from the store.
	Deleted bool
	// Err is nil or a *StatusError.
	Err error
	// Fault is the injected fault rule that failed the request, nil if none did.
	// It is a copy taken when the rule fired.
	Fault *FaultRule
}

// Outcome sums the response up in one word for the requests view: "ok", or the
// reason of the failure ("NotFound", "Conflict", ...), or "error" for an error
// without a reason.
func (r Response) Outcome() string {
	if r.Err == nil {
		return "ok"
	}
	if reason := ReasonOf(r.Err); reason != ReasonUnknown {
		return string(reason)
	}
	return "error"
}

// Serve carries out one request. It is the single entry point every verb goes
// through (the typed methods below call it), so fault injection, and whatever
// records requests, sees every call.
func (s *Store) Serve(req Request) Response { return s.serve(&req) }

// serve is Serve for a request the caller holds: the API server's, in
// flight, which it hands over by pointer rather than copying its 136
// bytes, and then again into the verb's handler. No handler changes the
// request.
func (s *Store) serve(req *Request) Response {
	info := infoFor(req.Kind)
	if info == nil {
		return Response{Err: errUnknownKind(req.Kind)}
	}
	switch req.Verb {
	case VerbCreate:
		switch {
		case req.Subresource == "":
			return s.serveCreate(info, req)
		case req.Subresource == SubresourceBinding && info.kind == api.KindPod:
			return s.serveBind(info, req)
		}
	case VerbGet:
		if req.Subresource == "" || (req.Subresource == SubresourceStatus && info.hasStatus) {
			return s.serveGet(info, req)
		}
	case VerbList:
		if req.Subresource == "" {
			return s.serveList(info, req)
		}
	case VerbWatch:
		if req.Subresource == "" {
			return s.serveWatch(info, req)
		}
	case VerbUpdate:
		switch {
		case req.Subresource == "":
			return s.serveUpdate(info, req, false)
		case req.Subresource == SubresourceStatus && info.hasStatus:
			return s.serveUpdate(info, req, true)
		}
	case VerbPatch:
		if req.Subresource == "" {
			return s.servePatch(info, req)
		}
	case VerbDelete:
		if req.Subresource == "" {
			return s.serveDelete(info, req)
		}
	default:
		return Response{Err: newMethodNotSupported(info, string(req.Verb))}
	}
	return Response{Err: errNoSuchResource(req.Resource())}
}

// errUnknownKind is the 404 a request for a resource the server does not serve
// gets.
func errUnknownKind(k api.Kind) *StatusError {
	return errNoSuchResource(string(k))
}

func errNoSuchResource(resource string) *StatusError {
	return &StatusError{
		Code: 404, Reason: ReasonNotFound,
		Message: "the server could not find the requested resource",
		Details: Details{Kind: resource},
	}
}

// fire consults the fault rules for the request and, if one fires, returns the
// failed response. name is the object's name as far as it is known (for a
// create, after generateName was resolved); shownName is the name admission
// plugins that run before name generation would print (the generateName).
func (s *Store) fire(info *kindInfo, req *Request, name, shownName string) (Response, bool) {
	if len(s.faults.rules) == 0 {
		return Response{}, false
	}
	rule, ok := s.faults.fire(req.Verb, req.Resource())
	if !ok {
		return Response{}, false
	}
	return Response{Err: s.faultError(rule, info, req, name, shownName), Fault: &rule}, true
}

// lastEvents returns the n most recent watch events of the kind, as a shared,
// capped slice: the events a write just caused.
func (s *Store) lastEvents(info *kindInfo, n int) []WatchEvent {
	h := &s.kinds[info.index].hist
	return h.slice(max(h.len()-n, 0))
}

// reconcileNamespace settles the namespace of an object sent for create or
// update: the URL's (req.Namespace) and the object's must agree, and either
// may be omitted. Cluster-scoped kinds have none, whatever was sent.
func reconcileNamespace(info *kindInfo, m *api.ObjectMeta, requested string) *StatusError {
	if !info.namespaced {
		m.Namespace = ""
		return nil
	}
	switch {
	case m.Namespace == "":
		m.Namespace = requested
	case requested != "" && requested != m.Namespace:
		return newBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// The typed methods. Each builds a Request, calls Serve and unpacks the
// Response: they are conveniences, not a second code path.

// Create stores a new object and returns it as stored: with its name (drawn from
// generateName if needed), uid, resourceVersion, creationTimestamp, defaults and
// reset status. obj is the store's once passed (see Request.Object): the
// caller must not change it afterwards, and the store does not change it.
func (s *Store) Create(obj api.Object) (api.Object, error) {
	if obj == nil {
		return nil, newBadRequest("the request has no object")
	}
	resp := s.Serve(Request{Verb: VerbCreate, Kind: obj.Kind(), Object: obj})
	return resp.Object, resp.Err
}

// Get returns the stored object: shared and read-only.
func (s *Store) Get(kind api.Kind, namespace, name string) (api.Object, error) {
	resp := s.Serve(Request{Verb: VerbGet, Kind: kind, Namespace: namespace, Name: name})
	return resp.Object, resp.Err
}

// List returns the objects of a kind in a namespace ("" for all) that the
// selector matches (the zero Selector matches all), sorted by key, and the
// resourceVersion the list was taken at: the place to start a watch from.
func (s *Store) List(kind api.Kind, namespace string, selector labels.Selector) ([]api.Object, uint64, error) {
	resp := s.Serve(Request{Verb: VerbList, Kind: kind, Namespace: namespace,
		ListOptions: &ListOptions{LabelSelector: selector}})
	return resp.Items, resp.ResourceVersion, resp.Err
}

// Update replaces an object's spec and metadata. If obj carries a
// resourceVersion it must be the stored one (optimistic concurrency); its
// status is ignored. obj is copied, not kept.
func (s *Store) Update(obj api.Object) (api.Object, error) {
	if obj == nil {
		return nil, newBadRequest("the request has no object")
	}
	resp := s.Serve(Request{Verb: VerbUpdate, Kind: obj.Kind(), Object: obj})
	return resp.Object, resp.Err
}

// UpdateStatus replaces an object's status through the status subresource;
// spec and most metadata are ignored. obj is copied, not kept.
func (s *Store) UpdateStatus(obj api.Object) (api.Object, error) {
	if obj == nil {
		return nil, newBadRequest("the request has no object")
	}
	resp := s.Serve(Request{Verb: VerbUpdate, Kind: obj.Kind(), Subresource: SubresourceStatus, Object: obj})
	return resp.Object, resp.Err
}

// Bind assigns a pending pod to a node, as the scheduler does through the
// pods/binding subresource, and returns the bound pod.
func (s *Store) Bind(namespace, name, nodeName string) (*api.Pod, error) {
	resp := s.Serve(Request{Verb: VerbCreate, Kind: api.KindPod, Subresource: SubresourceBinding,
		Namespace: namespace, Name: name, NodeName: nodeName})
	pod, _ := resp.Object.(*api.Pod)
	return pod, resp.Err
}

// Patch applies a metadata patch and returns the patched object.
func (s *Store) Patch(kind api.Kind, namespace, name string, patch MetaPatch) (api.Object, error) {
	resp := s.Serve(Request{Verb: VerbPatch, Kind: kind, Namespace: namespace, Name: name, Patch: &patch})
	return resp.Object, resp.Err
}

// Delete deletes an object, or starts its graceful deletion, and returns it (see
// Response.Object). nil opts are the zero options. Use Serve to learn
// whether it was removed at once.
func (s *Store) Delete(kind api.Kind, namespace, name string, opts *DeleteOptions) (api.Object, error) {
	resp := s.Serve(Request{Verb: VerbDelete, Kind: kind, Namespace: namespace, Name: name, DeleteOptions: opts})
	return resp.Object, resp.Err
}

// serveGet reads one object.
func (s *Store) serveGet(info *kindInfo, req *Request) Response {
	if resp, failed := s.fire(info, req, req.Name, req.Name); failed {
		return resp
	}
	obj := s.lookup(info, req.Namespace, req.Name)
	if obj == nil {
		return Response{Err: newNotFound(info, req.Name)}
	}
	return Response{Object: obj, ResourceVersion: parseRV(obj.Meta().ResourceVersion)}
}

// serveList reads a kind, in one namespace or all.
func (s *Store) serveList(info *kindInfo, req *Request) Response {
	if resp, failed := s.fire(info, req, "", ""); failed {
		return resp
	}
	var sel *labels.Selector
	if list := req.List(); !list.LabelSelector.Empty() {
		sel = &list.LabelSelector
	}
	return Response{Items: s.collect(info, req.Namespace, sel), ResourceVersion: s.rv}
}

// serveWatch returns the events after the requested resourceVersion.
func (s *Store) serveWatch(info *kindInfo, req *Request) Response {
	if resp, failed := s.fire(info, req, "", ""); failed {
		return resp
	}
	from := req.List().ResourceVersion
	events, err := s.eventsSince(info, req.Namespace, from)
	if err != nil {
		return Response{Err: err}
	}
	rv := from
	if len(events) > 0 {
		rv = events[len(events)-1].ResourceVersion
	}
	return Response{Events: events, ResourceVersion: rv}
}
