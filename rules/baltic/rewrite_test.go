package baltic

import (
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// spelled gives a state's legal moves as notation spells them.
func spelled(s rules.State) []rules.Spelled { return s.(*State).spelled() }

// TestRewritesReadAsTheMoveOrRefused (issue 37): every legal move of
// random positions, rewritten in every form the notation accepts (with
// and without its letter, the square left in full, as a file, a rank or
// not at all, each separator, either case, spaces, dashes, marks), is read
// as that move or refused, never as another (rulestest.Rewriting).
func TestRewritesReadAsTheMoveOrRefused(t *testing.T) {
	t.Parallel()
	rulestest.Rewriting(t, Variant, &notation, spelled)
}

// FuzzMatch fuzzes the matcher with the "never another move" property
// (rulestest.FuzzRewriting).
func FuzzMatch(f *testing.F) { rulestest.FuzzRewriting(f, Variant, &notation, spelled, "b1-c2") }
