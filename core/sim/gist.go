package sim

// Gist is what an event carried, in the few words a reader of its step
// needs once the data itself is gone: the request and its sender, the
// answer and how it went, the watch event and its object. A step kept for
// a learner to read later keeps the gist of its event's data rather than
// the data (see StepPack): the data holds whole objects, old versions that
// nothing else keeps alive, and a reader of the step never looks inside
// them.
type Gist struct {
	// Gists are not compared with ==, and so need no code that would.
	_ [0]func()

	// Carried says what the data was; the zero Gist carried nothing a
	// reader names (a timer, a worker's turn).
	Carried Carried
	// From is the component that sent a request.
	From string
	// Verb is a request's verb ("create"), of an answer's request too, or
	// a watch event's type ("MODIFIED").
	Verb string
	// What is a request's resource ("pods/status"), or the kind of a watch
	// event's object ("Pod"); Name is that object's name.
	What, Name string
	// Failed is the outcome of an answer that failed ("Conflict"), and ""
	// for one that succeeded.
	Failed string
}

// Carried says what an event's data was.
type Carried uint8

const (
	// CarriedRequest is a request on its way to the API server.
	CarriedRequest Carried = 1 + iota
	// CarriedReply is the API server's answer on its way back.
	CarriedReply
	// CarriedWatch is a watch event on its way to its watcher.
	CarriedWatch
)

// A Gister is event data that can say its gist. The API server's requests,
// answers and watch deliveries are; data that is not has the zero Gist.
type Gister interface {
	Gist() Gist
}

// GistOf returns the gist of what ev carried: its data's, or the data
// itself when a kept step already holds only the gist.
func GistOf(ev Event) Gist {
	switch d := ev.Data.(type) {
	case Gist:
		return d
	case Gister:
		return d.Gist()
	}
	return Gist{}
}
