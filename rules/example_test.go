package rules_test

import (
	"errors"
	"fmt"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// A game through the Variant and State interfaces: a new state, a move read
// in the variant's notation and applied (the Report says what each viewer
// learns), and a move the rules refuse, with the reason.
func Example() {
	v, err := variants.Lookup("chess")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := v.New(rules.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := s.Parse("e4")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, rep, err := s.Apply(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Black reads:", rep.Record[rules.ViewBlack], "- to move:", v.Sides()[s.ToMove()], "with", len(s.Moves()), "moves")
	_, err = s.Parse("Ke2")
	var me *rules.MoveError
	fmt.Println("Ke2 refused:", errors.As(err, &me))
	// Output:
	// Black reads: e4 - to move: Black with 20 moves
	// Ke2 refused: true
}
