package battle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Variant is Chess-Battle, registered under the id "battle".
var Variant rules.Variant = variant{}

type variant struct{}

func (variant) ID() string          { return "battle" }
func (variant) Name() string        { return "Chess-Battle" }
func (variant) Sides() [2]string    { return [2]string{"White", "Red"} }
func (variant) Rulesets() []string  { return []string{"standard"} }
func (variant) Board() *rules.Board { return board }
func (variant) Hidden() bool        { return false }
func (variant) Help() string        { return help }
func (variant) String() string      { return "battle" }

// New starts a game. Options.Ruleset must be "" or "standard"; the seed is
// not used. Options.Position, if given, is a position string: the ranks
// from 12 down to 1 separated by "/", each listing its existing squares
// left to right (8 on ranks 1, 2, 11 and 12, 12 on the others) as piece
// letters (White upper case, Red lower case) and counts of empty squares;
// then "w" or "r" for the side to move; then optionally the plies since the
// last capture, shot or soldier move (C5) and the move number. The start
// is StartPosition.
func (variant) New(opt rules.Options) (rules.State, error) {
	if opt.Ruleset != "" && opt.Ruleset != "standard" {
		return nil, fmt.Errorf("battle: unknown ruleset %q (Chess-Battle has only \"standard\")", opt.Ruleset)
	}
	text := opt.Position
	if text == "" {
		text = StartPosition
	}
	p, err := parsePosition(text)
	if err != nil {
		return nil, err
	}
	return settle(p, &history{hash: p.hash}), nil
}

// history is the chain of Zobrist keys of the positions since the last
// change of material, newest first: only among them can a position repeat
// (soldiers move backwards, so their moves do not end the span).
type history struct {
	hash uint64
	prev *history
}

// State is the referee's full state of a Chess-Battle game (rules.State):
// the position with its repetition history. It is immutable.
type State struct {
	pos     position
	hist    *history
	reps    int          // how often p has occurred in hist, itself included
	moves   []rules.Move // legal moves, nil once the game is over
	check   rules.Square // where the headquarter to move is attacked from, or NoSquare
	outcome rules.Outcome
	cache   *notationCache
}

// notationCache holds what Parse needs, each part built on first use.
type notationCache struct {
	exactOnce, spellOnce sync.Once
	exact                map[string]rules.Move // canonical text → legal move
	spells               []rules.Spelled       // the legal moves spelled out for notation.Match
}

// settle completes a state: repetitions, legal moves and the outcome (C5).
func settle(p position, h *history) *State {
	s := &State{pos: p, hist: h, cache: &notationCache{}}
	for e := h; e != nil; e = e.prev {
		if e.hash == p.hash {
			s.reps++
		}
	}
	s.check = p.attacker(p.hq[p.side], p.side.Other())
	moves := p.legal(nil)
	switch {
	case len(moves) == 0 && s.check != rules.NoSquare:
		s.outcome = rules.Outcome{Status: rules.Win, Winner: p.side.Other(), Reason: "checkmate", Ruling: "C5"}
	case len(moves) == 0:
		s.outcome = rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "C5"}
	case s.reps >= 3:
		s.outcome = rules.Outcome{Status: rules.Draw, Reason: "threefold repetition", Ruling: "C5"}
	case p.quiet >= 100:
		s.outcome = rules.Outcome{Status: rules.Draw, Reason: "50 moves each without capture, shot or soldier move", Ruling: "C5"}
	default:
		s.moves = moves
	}
	return s
}

func (s *State) Variant() rules.Variant { return Variant }
func (s *State) Ruleset() string        { return "standard" }
func (s *State) ToMove() rules.Side     { return s.pos.side }
func (s *State) Ply() int               { return s.pos.ply() }
func (s *State) Outcome() rules.Outcome { return s.outcome }

// Moves lists the legal moves: each choice of a piece to remove on arrival
// at the far end is a move of its own (C4).
func (s *State) Moves() []rules.Move { return append([]rules.Move(nil), s.moves...) }

// Position is the position string of the state (see New).
func (s *State) Position() string { return s.pos.String() }

// Apply plays a legal move.
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, rules.GameOverError(s.safeFormat(m), s.outcome.Ruling, s.outcome, Variant.Sides())
	}
	if !s.isLegal(m) {
		text := s.safeFormat(m)
		_, reason, ruling := s.diagnose(text, notation.Read(text))
		if reason.IsZero() {
			reason = lang.Msg("that is not a legal move here")
		}
		e := &rules.MoveError{Input: text, Kind: rules.Illegal}
		e.SetWhy(reason, ruling)
		return nil, nil, e
	}
	np, material := s.pos.play(m)
	h := &history{hash: np.hash, prev: s.hist}
	if material {
		h.prev = nil
	}
	next := settle(np, h)
	return next, s.report(m, next), nil
}

func (s *State) isLegal(m rules.Move) bool {
	for _, l := range s.moves {
		if l == m {
			return true
		}
	}
	return false
}

// report describes m, played from s, leading to next.
func (s *State) report(m rules.Move, next *State) *rules.Report {
	sides := Variant.Sides()
	me, them := rules.Word(sides[s.pos.side]), rules.Word(sides[s.pos.side.Other()])
	text := s.Format(m)
	record := text
	var notes []lang.Text
	target := s.pos.cells[m.To]
	switch {
	case m.Kind == kindShot:
		notes = append(notes, lang.Msg("%s's %s on %s shot %s's %s on %s (C3).", me, rules.Word(pieceNames[m.Piece]), board.Name(m.From), them, rules.Word(pieceNames[typeOf(target)]), board.Name(m.To)))
	case target != 0:
		notes = append(notes, lang.Msg("%s's %s took %s's %s on %s.", me, rules.Word(pieceNames[m.Piece]), them, rules.Word(pieceNames[typeOf(target)]), board.Name(m.To)))
	}
	if m.Piece == pSoldier && board.Rank(m.To) == farRank[s.pos.side] {
		if m.Aux != rules.NoSquare {
			notes = append(notes, lang.Msg("%s's soldier reached %s and left the board; %s removed %s's %s on %s (C4).",
				me, board.Name(m.To), me, them, rules.Word(pieceNames[typeOf(s.pos.cells[m.Aux])]), board.Name(m.Aux)))
		} else {
			notes = append(notes, lang.Msg("%s's soldier reached %s and left the board; %s has nothing but the headquarter, so nothing else is removed (C4).",
				me, board.Name(m.To), them))
		}
	}
	switch {
	case next.outcome.Over():
		if next.outcome.Reason == "checkmate" {
			record += "#"
		} else if next.check != rules.NoSquare {
			record += "+"
		}
		notes = append(notes, lang.Msg("Game over: %s.", next.outcome.Text(sides)))
	case next.check != rules.NoSquare:
		record += "+"
		notes = append(notes, lang.Msg("%s's headquarter is in check from %s.", them, board.Name(next.check)))
	}
	rep := &rules.Report{Move: m, Mover: s.pos.side, Text: text}
	rep.SetAll(record, notes...)
	return rep
}

// View shows every piece to every viewer: Chess-Battle hides nothing.
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	for _, sq := range board.Squares() {
		if c := s.pos.cells[sq]; c != 0 {
			view.Cells[sq] = string(letterOf(c))
			view.Put(sq, rules.Piece{Side: sideOf(c), Kind: pieceNames[typeOf(c)]})
		}
	}
	sides := Variant.Sides()
	if !s.outcome.Over() && s.check != rules.NoSquare {
		view.Say(lang.Msg("%s's headquarter on %s is in check from %s.", rules.Word(sides[s.pos.side]), board.Name(s.pos.hq[s.pos.side]), board.Name(s.check)))
	}
	view.Say(lang.Msg("Move %d. Plies without capture, shot or soldier move: %d of 100 (C5).", s.pos.move, s.pos.quiet))
	view.Kinds = pieceNames[1:]
	view.Legend = lang.Keys(
		"H headquarter (royal)  B bomber  T tank  G gun  M machine-gun",
		"C cavalry  S soldier; White in capitals, Red in small letters.",
		"\".\" a light square, \":\" a dark one (C1.2); blanks are no squares.",
	)
	return view
}

// wire is the serialised form, version 1. The history holds the Zobrist keys
// of the positions since the last change of material, oldest first, the
// current position's last; the keys are fixed (TestZobristKeysAreStable).
type wire struct {
	V        int      `json:"v"`
	Ruleset  string   `json:"ruleset"`
	Position string   `json:"position"`
	History  []uint64 `json:"history"`
}

// MarshalBinary writes {"v":1,"ruleset":…,"position":…,"history":[…]}.
func (s *State) MarshalBinary() ([]byte, error) {
	var keys []uint64
	for e := s.hist; e != nil; e = e.prev {
		keys = append(keys, e.hash)
	}
	for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
		keys[i], keys[j] = keys[j], keys[i]
	}
	// Written by hand, byte for byte what json.Marshal of wire gives
	// (TestMarshalMatchesJSON), because the playouts serialise every ply.
	b := make([]byte, 0, 128+21*len(keys))
	b = append(b, `{"v":1,"ruleset":"standard","position":"`...)
	b = append(b, s.pos.String()...)
	b = append(b, `","history":[`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, k, 10)
	}
	return append(b, "]}"...), nil
}

// Unmarshal reads what MarshalBinary wrote and checks it.
func (variant) Unmarshal(data []byte) (rules.State, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("battle: unmarshal: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("battle: unmarshal: trailing data")
	}
	if w.V != 1 {
		return nil, fmt.Errorf("battle: unmarshal: unknown format version %d", w.V)
	}
	if w.Ruleset != "standard" {
		return nil, fmt.Errorf("battle: unmarshal: unknown ruleset %q", w.Ruleset)
	}
	p, err := parsePosition(w.Position)
	if err != nil {
		return nil, fmt.Errorf("battle: unmarshal: %v", err)
	}
	if len(w.History) == 0 || w.History[len(w.History)-1] != p.hash {
		return nil, fmt.Errorf("battle: unmarshal: the history does not end with the position")
	}
	if len(w.History) > p.ply()+1 {
		return nil, fmt.Errorf("battle: unmarshal: %d positions in the history of ply %d", len(w.History), p.ply())
	}
	var h *history
	for _, k := range w.History {
		h = &history{hash: k, prev: h}
	}
	s := settle(p, h)
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("battle: unmarshal: %v", err)
	}
	return s, nil
}

// Check verifies the state's invariants.
func (s *State) Check() error {
	p := &s.pos
	var count [2][numTypes]int
	for sq := range boardSize {
		c := p.cells[sq]
		if c == 0 {
			continue
		}
		if !board.Exists(rules.Square(sq)) {
			return fmt.Errorf("battle: a piece on the missing square %d", sq)
		}
		if typeOf(c) == pNone || c >= 16 {
			return fmt.Errorf("battle: bad cell code %d on %s", c, board.Name(rules.Square(sq)))
		}
		count[sideOf(c)][typeOf(c)]++
		if typeOf(c) == pSoldier && board.Rank(rules.Square(sq)) == farRank[sideOf(c)] {
			return fmt.Errorf("battle: a soldier stayed on the far end at %s (C4)", board.Name(rules.Square(sq)))
		}
	}
	for side := range 2 {
		for t := pHQ; t < numTypes; t++ {
			if count[side][t] > limits[t] {
				return fmt.Errorf("battle: %s has %d %ss (C1.4)", Variant.Sides()[side], count[side][t], pieceNames[t])
			}
		}
		if count[side][pHQ] != 1 || p.cells[p.hq[side]] != cell(pHQ, rules.Side(side)) {
			return fmt.Errorf("battle: %s's headquarter is not where it is recorded", Variant.Sides()[side])
		}
	}
	if p.hash != p.computeHash() {
		return fmt.Errorf("battle: the position key is stale")
	}
	if s.hist == nil || s.hist.hash != p.hash {
		return fmt.Errorf("battle: the repetition history does not end with the position")
	}
	if p.quiet < 0 || p.quiet > 100 || p.move < 1 {
		return fmt.Errorf("battle: bad counters %d, %d", p.quiet, p.move)
	}
	if p.attacker(p.hq[p.side.Other()], p.side) != rules.NoSquare {
		return fmt.Errorf("battle: the side that just moved left its headquarter attacked")
	}
	seen := map[uint64]int{}
	for e := s.hist.prev; e != nil; e = e.prev {
		if seen[e.hash]++; seen[e.hash] >= 3 {
			return fmt.Errorf("battle: a position occurred three times before the last move, yet the game went on (C5)")
		}
	}
	if s.outcome.Over() != (len(s.moves) == 0) {
		return fmt.Errorf("battle: outcome %v with %d moves", s.outcome, len(s.moves))
	}
	if (s.check != rules.NoSquare) != p.inCheck() {
		return fmt.Errorf("battle: stale check flag")
	}
	return nil
}
