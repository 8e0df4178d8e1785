package game

import "testing"

// TestChallengeRefusals: a challenge the service cannot take gets one
// answer saying why, and creates no game.
func TestChallengeRefusals(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"unknown variant", "new nosuchgame vs " + bob, "nosuchgame"},
		{"unknown ruleset", "new baltic vs " + bob + " rules nosuchrules", `Baltic Sea Chess has no ruleset "nosuchrules"`},
		{"bad time control", "new chess vs " + bob + " time 3h", `"3h" is not a time control`},
		{"oneself", "new chess vs " + alice, "you cannot challenge yourself"},
		{"oneself in another case", "new chess vs Alice@Example.ORG", "you cannot challenge yourself"},
		{"the service", "new chess vs games+x@bottlepost.test", "bottlepost referees games; it does not play them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			pa := f.personal(alice)
			f.send(alice, pa, "new", tt.line)
			f.mustContain(f.last(alice), tt.want)
			if _, ok := f.inbox[bob]; ok {
				t.Errorf("bob was invited")
			}
		})
	}
}
