// Package labels decides which objects a controller cares about. A ReplicaSet
// does not keep a list of its pods; it keeps a label selector, and any pod whose
// labels the selector matches is a pod it may own. This package reads selectors,
// matches them against label sets, and checks that keys, values and object names
// are well formed. It behaves as k8s.io/apimachinery's labels package does, string
// for string, and its tests compare the two on many thousands of inputs.
//
// # Labels and selectors
//
// A label set (Set) is a map from keys to values, such as
//
//	app=web, tier=front, pod-template-hash=5d8f7
//
// A selector is a list of requirements, and it matches a set when every
// requirement does: the requirements are ANDed. There is no OR. A selector with no
// requirements matches every set.
//
// # The selector language
//
// Parse reads selectors written as text, the form `kubectl get pods -l` takes:
//
//	selector    = "" | requirement { "," requirement }
//	requirement = key                      (exists)
//	            | "!" key                  (does not exist)
//	            | key ( "=" | "==" | "!=" ) [ value ]
//	            | key ( "in" | "notin" ) "(" [ value ] { "," [ value ] } ")"
//	            | key ( ">" | "<" ) integer
//
// Spaces, tabs and line breaks may stand between any two tokens. The operators
// are made of the characters = ! ( ) , > < and are read longest first, so "!=" is
// one operator and not "!" then "=". Everything else up to the next space or
// operator character is a word: a key or a value. The words "in" and "notin" are
// operators only where an operator is expected; elsewhere they are plain words, so
// "in=notin" and "x in (in,notin)" are both valid.
//
// A value may be empty: "x=" requires x to be present with the value "", and
// "x in (a,)" allows a or "". The empty list "x in ()" means the set {""}, not the
// empty set. Repeated values count once. In one corner the parser is stricter than
// the grammar above, because upstream's is: two commas in a row inside a list must
// be followed by a value or by a third comma, so "x in (a,,)" is an error while
// "x in (a,,,)" is accepted.
//
// Keys must be valid label keys: an optional DNS subdomain prefix and a slash,
// then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending
// with a letter or digit ("app", "example.com/tier"). Values must be valid label
// values: empty, or like such a name. IsQualifiedName and IsValidLabelValue say
// exactly what is wrong with one that is not.
//
// # What each operator matches
//
//	app=web, app==web   app is present and equals web
//	app!=web            app is absent, or present with another value
//	tier in (a,b)       tier is present and is a or b
//	tier notin (a,b)    tier is absent, or present and neither a nor b
//	canary              canary is present, with any value, even ""
//	!canary             canary is absent
//	replicas>2          replicas is present, is a base-10 integer, and is above 2
//	replicas<2          the same, below 2
//
// Two rows surprise almost everyone once. The negative operators, != and notin,
// match sets that do not have the key at all: "tier!=cache" selects a pod with no
// tier label. To require the key and exclude a value, write both:
// "tier,tier!=cache". And > and < never match a value that is not a number:
// "replicas>2" does not match replicas=three, and neither does "replicas<2".
//
// # Requirements are sorted
//
// Parse sorts the requirements by key, so "x=a,a=x" and "a=x,x=a" give the same
// selector, and String prints both as "a=x,x=a". Sorting makes a selector's text
// a function of its meaning rather than of how someone typed it, which is what
// caches, logs and tests need to compare selectors. Matching does not care about
// order, since every requirement must hold anyway. In and notin lists are sorted
// and de-duplicated the same way: "x in (b,a,b)" prints as "x in (a,b)".
//
// # Structured selectors: nil is not empty
//
// ReplicaSets carry their selector as an api.LabelSelector: matchLabels (each
// entry a "key=value" requirement) and matchExpressions (In, NotIn, Exists,
// DoesNotExist). LabelSelectorAsSelector converts one, and the difference between
// "no selector" and "an empty selector" matters:
//
//	nil                      Nothing():    matches no set
//	&api.LabelSelector{}     Everything(): matches every set
//
// A nil selector means "not set", and selecting everything by accident would be
// dangerous, so it selects nothing. An empty one is a deliberate "no conditions".
// (The ReplicaSet controller is stricter still and refuses to act on an empty
// selector at all; that rule belongs to the controller, not to this package.)
// The zero Selector is Everything(), like upstream's NewSelector(); Nothing() must
// always be asked for by name.
//
// # Matching is cheap
//
// A controller tests every pod in a namespace against its selector on every sync,
// so Matches is built to be quick: it looks up one key per requirement, tests the
// requirements most likely to fail first (those that demand a value, before those
// that merely forbid one), stops at the first that fails, and never allocates.
// Parse, likewise, allocates only the finished selector.
//
// # Names
//
// The validation functions check what the API store accepts: label keys and
// values, DNS-1123 labels and subdomains (the formats of namespace and object
// names), DNS-1035 labels, and names generated from metadata.generateName, where a
// trailing '-' is fine because random characters will follow it. They return
// messages worded as the Kubernetes API server words them, or nil when all is
// well.
package labels
