package main

import (
	"github.com/reconcilelab/rlab/core/world"
)

// This file answers the view op: everything the page draws at one step, as
// one JSON value. The world's part is its read model (world.View), which
// this file only marshals; every list in it is in a fixed order, so equal
// worlds give equal views, byte for byte.

// ViewArgs: how many agenda events (default 10), recent steps (default 10),
// pods (default 1000) and cache entries per informer (default 200) to list;
// -1 lists none. PodsPerGroup, when above 0, also lists at most that many
// pods of each group (see world.PodGroup), the first by name: the page draws no
// more of a group than that, and a 1,000-pod ReplicaSet's view shrinks from
// some 130 KB of pods to 8, fetched ten times a second while Play runs. The
// caps keep a view of a 10,000-pod world cheap enough to fetch at every
// chunk of a long run; the totals and PodGroups say what was left out.
type ViewArgs struct {
	Agenda       int `json:"agenda,omitempty"`
	Steps        int `json:"steps,omitempty"`
	Pods         int `json:"pods,omitempty"`
	PodsPerGroup int `json:"podsPerGroup,omitempty"`
	Entries      int `json:"entries,omitempty"`
}

// Default caps of a view.
const (
	defaultViewPods    = 1000
	defaultViewEntries = 200
)

// View is the page's whole picture of the world at the present step: the
// world's read model (world.View), and what only the session knows: whether
// it is a sandbox or a lesson, where the learner took over, the learner's
// commands, and the last steps.
type View struct {
	Mode   string `json:"mode"`
	Lesson string `json:"lesson,omitempty"`
	// BaseStep is where the learner took over (after the start or the
	// lesson's setup).
	BaseStep uint64 `json:"baseStep"`
	// Inputs are the learner's commands on the timeline, with the step each
	// was applied at (a seek back keeps the ones after the present until
	// something new forks the timeline). A lesson's setup is not the
	// learner's: its commands are not listed.
	Inputs []Input `json:"inputs,omitempty"`

	world.View

	// LastSteps are the most recent steps up to the present, oldest first.
	LastSteps []Step `json:"lastSteps,omitempty"`
}

// Input is one command on the timeline.
type Input struct {
	Step uint64 `json:"step"`
	Text string `json:"text"`
}

// View returns the page's picture of the world at the present step.
func (b *Bridge) View(a ViewArgs) (*View, error) {
	e, w, err := b.loaded()
	if err != nil {
		return nil, err
	}
	v := &View{Mode: e.mode, BaseStep: e.baseStep}
	if e.lesson != nil {
		v.Lesson = e.lesson.ID
	}
	inputs := w.Inputs()
	for _, in := range inputs[min(e.baseInputs, len(inputs)):] {
		v.Inputs = append(v.Inputs, Input{Step: in.Step, Text: in.Name})
	}
	v.View = w.View(world.ViewOptions{
		Agenda:       orDefault(a.Agenda, defaultViewAgenda),
		Pods:         orDefault(a.Pods, defaultViewPods),
		PodsPerGroup: max(a.PodsPerGroup, 0),
		Entries:      orDefault(a.Entries, defaultViewEntries),
	})
	if stepsN := orDefault(a.Steps, defaultViewSteps); stepsN > 0 {
		log, i, j := e.logRange(1, w.Kernel.Steps())
		v.LastSteps = stepsJSON(log, max(i, j-stepsN), j)
	}
	return v, nil
}

// orDefault is n, or def when n is 0; a negative n is 0.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}
