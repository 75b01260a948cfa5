package sim

import "strconv"

// Count writes a number with its noun, for the sentences a step's Report
// tells a learner: "1 key", "3 keys", "2 watches". Every component words its
// counts through it, so none writes "1 keys".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
