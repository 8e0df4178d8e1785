package rules

import "github.com/bottlepost/bottlepost/lang"

// Check is one line of a variant's explainer table (its why, which says
// why a move is not legal): a rule the move may break, tested in the
// table's order. Fails says whether the move at hand (T, the variant's
// description of it) breaks the rule; the reason is Say's when Say is set,
// else Text; the ruling cited is Cite's when Cite is set, else Ruling. Stage, for explainers that weigh
// the explanations of several pieces (chess's "Nd2" with two knights), says
// how far a move got through the rules: the furthest is the most telling.
type Check[T any] struct {
	Fails  func(T) bool
	Text   lang.Text
	Say    func(T) lang.Text
	Ruling string
	Cite   func(T) string
	Stage  int
}

// Explain goes down a table of checks and returns the first that m fails,
// with its reason (a message of the catalogs, lang) and ruling; c is nil when m fails none.
func Explain[T any](m T, table []Check[T]) (c *Check[T], reason lang.Text, ruling string) {
	for i := range table {
		c := &table[i]
		if !c.Fails(m) {
			continue
		}
		reason, ruling = c.Text, c.Ruling
		if c.Say != nil {
			reason = c.Say(m)
		}
		if c.Cite != nil {
			ruling = c.Cite(m)
		}
		return c, reason, ruling
	}
	return nil, lang.Text{}, ""
}

// Word is a word a variant declares with lang.Keys (a side's name, a kind
// of piece) as a message, written in the reader's language as lang's Word
// writes it.
func Word(key string) lang.Text { return lang.Key(key) }

// sideWords are the variants' side names, looked up with Word.
var _ = lang.Keys("White", "Black", "Red")

// The variants' reasons for a game's end (Outcome.Reason), looked up as
// words (Outcome.Text, and the game service's reasonIn).
var _ = lang.Keys("checkmate", "stalemate", "threefold repetition",
	// chess
	"dead position: neither side can checkmate", "fifty-move rule: 50 moves each without a capture or pawn move",
	// seachess
	"commando ship lost to a mine", "fourth repetition of the position", "75 moves each without capture or boat move",
	// submachine
	"fifty-move rule", "insufficient material: bare kings",
	// baltic
	"3 victory points", "both sides are left with a single piece", "the opponent is left with a single piece",
	"the opponent has no legal move", "more points", "equal points, light pieces further forward", "equal points and equal light pieces",
	// battle
	"50 moves each without capture, shot or soldier move",
	// transporter
	"White is reduced to a bare Admiral", "Black is reduced to a bare Admiral", "50 moves each without a capture or a Fighter move",
	"White has no legal move (there is no stalemate)", "Black has no legal move (there is no stalemate)")
