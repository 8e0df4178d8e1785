package rules

import (
	"testing"

	"github.com/bottlepost/bottlepost/lang"
)

// TestExplain: the first check a move fails gives the reason (Say before
// Text) and the ruling (Cite before Ruling); none failed gives nil.
func TestExplain(t *testing.T) {
	type move struct{ n int }
	table := []Check[move]{
		{Fails: func(m move) bool { return m.n < 0 }, Text: lang.Raw("negative"), Ruling: "R1", Stage: 1},
		{Fails: func(m move) bool { return m.n == 0 }, Text: lang.Raw("unused"), Say: func(move) lang.Text { return lang.Raw("zero") }, Ruling: "R2",
			Cite: func(move) string { return "R2.1" }, Stage: 2},
		{Fails: func(m move) bool { return m.n > 9 }, Say: func(m move) lang.Text { return lang.Raw("too big") }},
		{Fails: func(m move) bool { return m.n > 5 }, Text: lang.Raw("never reached for 10")},
	}
	tests := []struct {
		name           string
		n              int
		reason, ruling string
		stage          int
		none           bool
	}{
		{"the first check", -1, "negative", "R1", 1, false},
		{"Say and Cite win", 0, "zero", "R2.1", 2, false},
		{"the first of two failed", 10, "too big", "", 0, false},
		{"a later check", 7, "never reached for 10", "", 0, false},
		{"none failed", 3, "", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, why, ruling := Explain(move{tt.n}, table)
			if (c == nil) != tt.none {
				t.Fatalf("check %v, want none: %v", c, tt.none)
			}
			reason := why.String()
			if reason != tt.reason || ruling != tt.ruling || (c != nil && c.Stage != tt.stage) {
				t.Errorf("got %q %q, want %q %q (stage %d)", reason, ruling, tt.reason, tt.ruling, tt.stage)
			}
		})
	}
}
