package labels_test

import (
	"fmt"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
)

// A selector string is parsed once and matched against many label sets.
func ExampleParse() {
	sel, err := labels.Parse("app=web, tier in (front,back), !canary")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sel) // sorted by key

	pods := []labels.Set{
		{"app": "web", "tier": "front"},
		{"app": "web", "tier": "front", "canary": "true"},
		{"app": "web", "tier": "cache"},
		{"app": "db", "tier": "back"},
	}
	for _, pod := range pods {
		fmt.Printf("%-32s %v\n", pod, sel.Matches(pod))
	}
	// Output:
	// app=web,!canary,tier in (back,front)
	// app=web,tier=front               true
	// app=web,canary=true,tier=front   false
	// app=web,tier=cache               false
	// app=db,tier=back                 false
}

// Errors say what was found where, and what would have been right.
func ExampleParse_error() {
	_, err := labels.Parse("app=web,,tier=front")
	fmt.Println(err)
	// Output:
	// found ',' at column 9, expected: identifier after ','
}

// The negative operators match sets that lack the key altogether.
func ExampleSelector_Matches_absentKeys() {
	sel, _ := labels.Parse("tier!=cache")
	fmt.Println(sel.Matches(labels.Set{"tier": "front"}))
	fmt.Println(sel.Matches(labels.Set{"tier": "cache"}))
	fmt.Println(sel.Matches(labels.Set{"app": "web"})) // no tier at all
	// Output:
	// true
	// false
	// true
}

// A ReplicaSet's structured selector: nil selects nothing, empty selects
// everything.
func ExampleLabelSelectorAsSelector() {
	pod := labels.Set{"app": "web"}
	for _, ls := range []*api.LabelSelector{
		nil,
		{},
		{MatchLabels: map[string]string{"app": "web"}},
	} {
		sel, err := labels.LabelSelectorAsSelector(ls)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-10q matches: %v\n", labels.FormatLabelSelector(ls), sel.Matches(pod))
	}
	// Output:
	// "<none>"   matches: false
	// "<none>"   matches: true
	// "app=web"  matches: true
}

// Validation returns the API server's messages, or nothing when all is well.
func ExampleIsValidLabelValue() {
	fmt.Println(labels.IsValidLabelValue("web-1"))
	fmt.Println(labels.IsValidLabelValue("web-")[0])
	// Output:
	// []
	// a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
}
