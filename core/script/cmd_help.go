package script

import (
	"slices"
)

// This file holds the help command; help.go writes the texts it prints.

// Help is `help [TOPIC]`; Topic is "" for the command list, a command's name
// (create rs), a first word shared by several (create, expect), or kinds,
// fields, config or selectors.
type Help struct {
	_ incomparable

	Source
	Topic string
}

// helpTopics are the topics help explains besides the commands.
var helpTopics = []string{"kinds", "fields", "selectors"}

func parseHelp(c *cmdParser) (Command, *ParseError) {
	cmd := &Help{Source: c.src}
	if len(c.args) == 0 {
		return cmd, nil
	}
	a := c.args[0]
	if len(c.args) == 1 && (containsString(helpTopics, a.Text) || containsString(firstWords(), a.Text)) {
		cmd.Topic = a.Text
		return cmd, nil
	}
	if !containsString(firstWords(), a.Text) {
		return nil, unknown(a, "help topic", a.Text, slices.Concat(firstWords(), helpTopics), `"help" lists the commands`)
	}
	sp, n, perr := dispatch(c.args, c.line.End)
	if perr != nil {
		return nil, perr
	}
	cmd.Topic = sp.Name
	return cmd, c.noMoreArgs(c.args[n:])
}

func (*Help) worldless() {}

func (c *Help) run(s *Session) error {
	text, err := HelpText(c.Topic)
	if err != nil {
		return failure(c, "help: "+err.Error())
	}
	s.printText(text)
	return nil
}
