//go:build !js

package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The console's Tab completion, as a learner meets it: names from the world
// the page shows, several offered as a list to pick from (the ARIA combobox
// pattern), one put in the line at once, none said in a status line.

// completionState is what the page shows of a completion: the line, the
// combobox's attributes, the options and the status line.
type completionState struct {
	Value      string   `json:"value"`
	Role       string   `json:"role"`
	Expanded   string   `json:"expanded"`
	Controls   string   `json:"controls"`
	Active     string   `json:"active"`
	ListRole   string   `json:"listRole"`
	ListShown  bool     `json:"listShown"`
	Options    []string `json:"options"`
	OptionRole []string `json:"optionRole"`
	Selected   []string `json:"selected"`
	Status     string   `json:"status"`
	Entries    int      `json:"entries"`
	Focused    bool     `json:"focused"`
}

const readCompletion = `(() => {
	const input = document.getElementById("console-input");
	const list = document.getElementById(input.getAttribute("aria-controls") ?? "console-completions");
	const options = list ? [...list.querySelectorAll("[role=option]")] : [];
	return {
		value: input.value,
		role: input.getAttribute("role") ?? "",
		expanded: input.getAttribute("aria-expanded") ?? "",
		controls: input.getAttribute("aria-controls") ?? "",
		active: input.getAttribute("aria-activedescendant") ?? "",
		listRole: list?.getAttribute("role") ?? "",
		listShown: list !== null && list.checkVisibility(),
		options: options.map((o) => o.textContent),
		optionRole: options.map((o) => o.getAttribute("role")),
		selected: options.filter((o) => o.getAttribute("aria-selected") === "true").map((o) => o.id),
		status: document.getElementById("console-completion-status")?.textContent ?? "",
		entries: document.querySelectorAll("#console-output .console-entry").length,
		focused: document.activeElement === input,
	};
})()`

// completion reads what the page shows of a completion now.
func (p *page) completion() completionState {
	p.t.Helper()
	return eval[completionState](p, readCompletion)
}

// tabComplete replaces the console's line with line, presses Tab, and waits
// until the page has answered: the list is open, the line changed, or the
// status line speaks.
func (p *page) tabComplete(line string) completionState {
	p.t.Helper()
	eval[any](p, `(() => { const i = document.getElementById("console-input"); i.value = ""; i.focus(); return null; })()`)
	p.typeLine("#console-input", line)
	p.press(kb.Tab)
	p.waitFor("the completion of "+line, quick, `(() => {
		const input = document.getElementById("console-input");
		return input.getAttribute("aria-expanded") === "true" || input.value !== `+js(line)+` ||
			(document.getElementById("console-completion-status")?.textContent ?? "") !== "";
	})()`)
	return p.completion()
}

// worldPods lists the names of the pods the page draws, sorted.
func (p *page) worldPods() []string {
	p.t.Helper()
	names := eval[[]string](p, `[...document.querySelectorAll("#world button.pod")].map((b) => b.dataset.pod)`)
	slices.Sort(names)
	return slices.Compact(names)
}

// TestConsoleCompletesPodNamesFromAList proves Tab after kill pod/ lists the
// pods of the world the page shows, as options of a listbox under the
// console's field (not as lines in the log), with their common prefix put in
// the line; that ↓ and Enter pick one; that Escape closes the list and
// nothing else; that a click picks; and that ↑/↓ recall history again once
// the list is closed.
func TestConsoleCompletesPodNamesFromAList(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	pods := p.worldPods()
	require.Len(t, pods, 3, "the default sandbox has rs/web's three pods")
	want := make([]string, len(pods))
	for i, name := range pods {
		want[i] = "pod/" + name
		require.True(t, strings.HasPrefix(name, "web-"), name)
	}
	p.command("get rs")
	before := p.completion()

	c := p.tabComplete("kill pod/")
	p.shot("list")
	assert.Equal(t, want, c.Options, "the options are the world's pods, sorted")
	assert.Equal(t, "kill pod/web-", c.Value, "the common prefix is filled in")
	assert.Equal(t, "combobox", c.Role)
	assert.Equal(t, "true", c.Expanded)
	assert.Equal(t, "console-completions", c.Controls)
	assert.Equal(t, "listbox", c.ListRole)
	assert.True(t, c.ListShown, "the list is on screen")
	assert.Equal(t, []string{"option", "option", "option"}, c.OptionRole)
	assert.Empty(t, c.Active, "no option is active before ↓")
	assert.Contains(t, c.Status, "3 completions")
	assert.Equal(t, before.Entries, c.Entries, "the completions are not written to the console's log")
	assert.True(t, c.Focused)
	p.checkNames("with the completion list open", 10)
	p.checkContrast("with the completion list open, light")
	p.colourScheme("dark")
	require.True(t, eval[bool](p, `matchMedia("(prefers-color-scheme: dark)").matches`))
	p.checkContrast("with the completion list open, dark")
	p.colourScheme("light")

	// ↓ twice makes the second option active; Enter puts it in the line.
	p.press(kb.ArrowDown)
	c = p.completion()
	assert.Equal(t, "console-completion-0", c.Active)
	assert.Equal(t, []string{"console-completion-0"}, c.Selected)
	p.press(kb.ArrowDown)
	c = p.completion()
	assert.Equal(t, "console-completion-1", c.Active)
	assert.Equal(t, []string{"console-completion-1"}, c.Selected)
	assert.Equal(t, "kill pod/web-", c.Value, "↓ moves in the list, not through history")
	p.shot("second-active")
	p.press(kb.Enter)
	c = p.completion()
	assert.Equal(t, "kill "+want[1]+" ", c.Value, "Enter picks the active option")
	assert.Equal(t, "false", c.Expanded)
	assert.False(t, c.ListShown)
	assert.Empty(t, c.Active)
	assert.Equal(t, before.Entries, c.Entries, "Enter on an option picks it and runs nothing")
	p.shot("picked")

	// Escape closes the list, and only the list: the page's own Escape
	// never hears of it, and the field keeps the focus.
	p.tabComplete("kill pod/")
	eval[any](p, `window.__e2eEscape = false, document.addEventListener("keydown", (e) => { if (e.key === "Escape") window.__e2eEscape = true; }), null`)
	p.press(kb.Escape)
	c = p.completion()
	assert.Equal(t, "false", c.Expanded)
	assert.False(t, c.ListShown)
	assert.True(t, c.Focused, "Escape on the list leaves the focus in the field")
	assert.False(t, eval[bool](p, `window.__e2eEscape`), "the Escape that closed the list reached the page's shortcuts")

	// A click picks.
	p.tabComplete("kill pod/")
	p.click(`#console-completions [role=option]:nth-child(3)`)
	c = p.completion()
	assert.Equal(t, "kill "+want[2]+" ", c.Value, "a click picks the option")
	assert.False(t, c.ListShown)
	assert.True(t, c.Focused, "the field keeps the focus after a click on an option")

	// With the list closed, ↑ recalls the last command, as before.
	p.press(kb.ArrowUp)
	assert.Equal(t, "get rs", p.value("#console-input"))
}

// TestConsoleCompletesOneMatchAtOnce proves a single candidate goes in the
// line at once (scale rs/ is rs/web, the start of a pod's name is the pod)
// with no list, that describe pod lists bare names, and that a line with
// nothing to complete says so briefly in the list's place, not in the log.
func TestConsoleCompletesOneMatchAtOnce(t *testing.T) {
	p := openPage(t, "")
	p.stabilize()
	pods := p.worldPods()
	require.NotEmpty(t, pods)
	entries := p.completion().Entries

	c := p.tabComplete("scale rs/")
	assert.Equal(t, "scale rs/web ", c.Value)
	assert.False(t, c.ListShown, "one candidate opens no list")
	p.shot("scale")

	// The shortest start of the first pod's name that no other pod's
	// shares names it alone.
	start := pods[0]
	for n := len("web-") + 1; n <= len(pods[0]); n++ {
		if !slices.ContainsFunc(pods[1:], func(o string) bool { return strings.HasPrefix(o, pods[0][:n]) }) {
			start = pods[0][:n]
			break
		}
	}
	c = p.tabComplete("kill pod/" + start)
	assert.Equal(t, "kill pod/"+pods[0]+" ", c.Value, "kill pod/%s names one pod", start)
	assert.False(t, c.ListShown)

	c = p.tabComplete("describe pod ")
	assert.Equal(t, pods, c.Options, "describe pod lists the bare names")
	p.press(kb.Escape)

	c = p.tabComplete("kill pod/nosuch")
	p.shot("none")
	assert.Equal(t, "kill pod/nosuch", c.Value)
	assert.False(t, c.ListShown)
	assert.Contains(t, c.Status, "no completions")
	assert.Equal(t, entries, c.Entries, "no completions is not a log entry")
	assert.True(t, eval[bool](p, `document.getElementById("console-completion-status").checkVisibility()`),
		"the status line is on screen")
}
