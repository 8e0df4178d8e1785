package rules

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
)

// Side is one of the two players. Variants name them (White/Black,
// White/Red); the numbering is fixed: side 0 sits at the bottom of the
// referee's board.
type Side uint8

// The two sides.
const (
	White Side = 0
	Black Side = 1
)

// Other returns the opponent.
func (s Side) Other() Side { return s ^ 1 }

// Viewer is whoever looks at a game: one of the sides, the referee who sees
// everything, or the public (observers) who see only what both sides know.
type Viewer uint8

// The viewers, in the order used by per-viewer arrays.
const (
	ViewWhite Viewer = iota
	ViewBlack
	ViewReferee
	ViewPublic
	NumViewers
)

// ViewerOf returns the viewer that is side s.
func ViewerOf(s Side) Viewer { return Viewer(s) }

// Side returns the side a player viewer is; ok is false for the referee and
// the public.
func (v Viewer) Side() (s Side, ok bool) {
	if v <= ViewBlack {
		return Side(v), true
	}
	return 0, false
}

// String names the viewer as the CLI spells it.
func (v Viewer) String() string {
	switch v {
	case ViewWhite:
		return "white"
	case ViewBlack:
		return "black"
	case ViewReferee:
		return "referee"
	case ViewPublic:
		return "public"
	}
	return fmt.Sprintf("viewer(%d)", v)
}

// ParseViewer reads "white", "black", "referee" or "public" (also a
// variant's own side name, such as "red", when sides are given).
func ParseViewer(s string, sides ...string) (Viewer, error) {
	for v := range NumViewers {
		if s == v.String() {
			return v, nil
		}
	}
	for i, name := range sides {
		if strings.EqualFold(s, name) && i < 2 {
			return Viewer(i), nil
		}
	}
	return 0, fmt.Errorf("rules: unknown viewer %q (want white, black, referee or public)", s)
}

// Move is a move as a variant encodes it. Fields unused by a variant hold
// NoSquare or zero; Kind and Piece are the variant's own codes. Moves are
// comparable values.
type Move struct {
	From, To Square
	Aux      Square // a second square: transporter destination, the square of a piece removed by choice, …
	Piece    uint8  // the variant's code of the moving piece
	Promo    uint8  // the variant's code of the piece promoted to, 0 for none
	Kind     uint8  // the variant's move kind (castle, shot, submerge, …)
}

// Options choose a game's variation when it is created.
type Options struct {
	Ruleset  string // "" for the variant's default ruleset
	Seed     uint64 // randomness for the setup (kept in the state)
	Position string // a variant-specific start description, such as a FEN; "" for the standard start
}

// Variant describes one game: its identity, its board and how to start or
// decode a game of it.
type Variant interface {
	ID() string
	Name() string
	// Sides names side 0 and side 1 ("White", "Black").
	Sides() [2]string
	// Rulesets lists the ruleset names; the first is the default.
	Rulesets() []string
	Board() *Board
	// Hidden reports whether a state may hold information a side may not see.
	Hidden() bool
	// Help is a short plain-text guide for players (at most about 40 lines of
	// at most 72 characters): the aim, the pieces, the notation with
	// examples, citing the ruling numbers. The help mail and the
	// invitation quote it in the reader's language: it is a message of the
	// catalogs (the variant package declares it with lang.Keys), looked up
	// by its value, and each language's version keeps that shape and the
	// ruling numbers.
	Help() string
	// New starts a game. Bad options give an error naming what is wrong.
	New(opt Options) (State, error)
	// Unmarshal decodes a state written by State.MarshalBinary, of this or
	// any earlier format version.
	Unmarshal(data []byte) (State, error)
}

// State is the referee's full state of a game: immutable, so it can be
// shared, compared and kept.
type State interface {
	Variant() Variant
	Ruleset() string
	// ToMove is the side whose turn it is.
	ToMove() Side
	// Ply counts the moves played since the start.
	Ply() int
	// Moves lists what the side to move may submit, computed from what that
	// side knows. Empty when the game is over.
	Moves() []Move
	// Apply plays m for the side to move and returns the new state and what
	// each viewer learns. A move not in Moves gives a *MoveError of kind
	// Illegal; a listed move that the referee refuses with full information
	// gives one of kind Refused; both leave the state as it was.
	Apply(m Move) (State, *Report, error)
	// Outcome says whether the game is over, how and why.
	Outcome() Outcome
	// Format writes m (a move of this position) in canonical notation, as its
	// author writes it.
	Format(m Move) string
	// Parse reads a move for the side to move: canonical notation and the
	// lenient forms the variant accepts (case, spaces, optional "-"/"x"), and
	// also the referee's record of it, through the variant's Notation: a
	// text is never read as a move it was not written for, and one that two
	// legal moves could be is refused as Ambiguous. Errors are *MoveError.
	Parse(text string) (Move, error)
	// View is everything viewer v may see: the one place that decides it.
	View(v Viewer) *View
	// MarshalBinary encodes the full state in a stable, versioned format.
	MarshalBinary() ([]byte, error)
	// Check verifies the state's internal consistency.
	Check() error
}

// Report is what a move did, as each viewer learns it.
type Report struct {
	Move  Move
	Mover Side
	// Text is the move as its author submitted it, in canonical notation.
	Text string
	// Secret marks a hidden move (Seachess S10.1): its text is sealed and the
	// opponent learns only that a hidden move was made.
	Secret bool
	// Record is the move's entry in the game record as each viewer may read
	// it (the referee's carries every effect; the opponent's may be "(h)").
	Record [NumViewers]string
	// Notices are sentences for each viewer about what happened
	// ("your boat struck a mine on e5", "check"), as messages the game
	// writes in each reader's language.
	Notices [NumViewers][]lang.Text
}

// SetAll gives every viewer the same record and notices.
func (r *Report) SetAll(record string, notices ...lang.Text) {
	for v := range NumViewers {
		r.Record[v] = record
		r.Notices[v] = append([]lang.Text(nil), notices...)
	}
}

// NoticesIn are viewer v's notices written in language l.
func (r *Report) NoticesIn(v Viewer, l lang.Lang) []string {
	out := make([]string, len(r.Notices[v]))
	for i, t := range r.Notices[v] {
		out[i] = t.In(l)
	}
	return out
}

// English are viewer v's notices in English (the logs', the tests').
func (r *Report) English(v Viewer) []string { return r.NoticesIn(v, lang.English) }

// Status is whether a game goes on or how it ended.
type Status uint8

// Game statuses.
const (
	Ongoing Status = iota
	Win
	Draw
)

// Outcome is a game's result with the reason and the ruling behind it.
type Outcome struct {
	Status Status
	Winner Side   // with Win
	Reason string // "checkmate", "stalemate", "threefold repetition", …
	Ruling string // the rule cited, e.g. "FIDE 5.2.2" or "S9"
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Status != Ongoing }

// Result is the PGN result token: "1-0", "0-1", "1/2-1/2" or "*".
func (o Outcome) Result() string {
	switch o.Status {
	case Win:
		if o.Winner == White {
			return "1-0"
		}
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Describe phrases the outcome for players, naming the winner with the
// variant's side names.
func (o Outcome) Describe(sides [2]string) string { return o.Text(sides).String() }

// Text is Describe as a message (lang), to write in a reader's language:
// the side names (sides, in English as Sides gives them) and the reason
// are looked up as words the variants declare (lang.Keys).
func (o Outcome) Text(sides [2]string) lang.Text { return o.Because(sides, Word(o.Reason)) }

// Because is Text with the reason given as a message: the game service's
// own endings ("White resigned") in the reader's language.
func (o Outcome) Because(sides [2]string, reason lang.Text) lang.Text {
	cite := ""
	if o.Ruling != "" {
		cite = " (" + o.Ruling + ")"
	}
	switch o.Status {
	case Win:
		return lang.Msg("%s wins: %s%s", Word(sides[o.Winner]), reason, cite)
	case Draw:
		return lang.Msg("drawn: %s%s", reason, cite)
	}
	return lang.Msg("the game goes on")
}

// GameOverError is the error for a move sent after the game ended
// (outcome o; sides as Sides gives them), citing ruling.
func GameOverError(input, ruling string, o Outcome, sides [2]string) *MoveError {
	return Errorf(GameOver, input, ruling, "the game is over: %s", o.Text(sides))
}

// Perfter is implemented by states with a fast perft of their own.
type Perfter interface {
	Perft(depth int) uint64
}

// Perft counts the leaf nodes of the game tree to depth plies: moves the
// referee accepts, the way Apply judges them. It uses the state's own fast
// path when it has one.
func Perft(s State, depth int) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth)
	}
	return ApplyPerft(s, depth)
}

// ApplyPerft is perft through the public Moves and Apply only, never a
// state's own fast path: the reference a variant's fast perft is tested
// against. Moves Apply refuses are not counted.
func ApplyPerft(s State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range s.Moves() {
		next, _, err := s.Apply(m)
		if err != nil {
			continue
		}
		if depth == 1 {
			n++
		} else {
			n += ApplyPerft(next, depth-1)
		}
	}
	return n
}

// DivideEntry is one first move of a perft divide and its leaf count.
type DivideEntry struct {
	Move  string
	Nodes uint64
}

// Divide is perft split by first move, in the order of Moves.
func Divide(s State, depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range s.Moves() {
		next, _, err := s.Apply(m)
		if err != nil {
			continue
		}
		n := uint64(1)
		if depth > 1 {
			n = Perft(next, depth-1)
		}
		out = append(out, DivideEntry{Move: s.Format(m), Nodes: n})
	}
	return out
}
