// Package submachine implements Submachine Chess (variant id "submachine")
// to the rulings M1–M7 of docs/variants/submachine.md: a 100-square board of
// four 5×5 sub-boards with holes and loose squares, horizontal cylinders and
// a one-way vertical shift (the geometry is rules.SubmachineBoard), four
// teleport squares, pawns that jump holes, the Cardinal (bishop+knight) and
// the Marshall (rook+knight), promotion from rank 10, and FIDE rules for
// everything else, without castling.
//
// Positions are written as described at StartPosition; Options.Position
// (the CLI's --fen) takes such a string.
package submachine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Ruleset is the only ruleset: the game as the rulings define it.
const Ruleset = "standard"

// Variant is Submachine Chess.
var Variant rules.Variant = variant{}

type variant struct{}

func (variant) ID() string                                   { return "submachine" }
func (variant) Name() string                                 { return "Submachine Chess" }
func (variant) Sides() [2]string                             { return [2]string{"White", "Black"} }
func (variant) Rulesets() []string                           { return []string{Ruleset} }
func (variant) Board() *rules.Board                          { return board }
func (variant) Hidden() bool                                 { return false }
func (variant) Help() string                                 { return help }
func (variant) String() string                               { return "submachine" }
func (v variant) New(opt rules.Options) (rules.State, error) { return newGame(opt) }

func newGame(opt rules.Options) (*State, error) {
	if opt.Ruleset != "" && opt.Ruleset != Ruleset {
		return nil, lang.Fail("submachine", "unknown ruleset %q (there is only %q)", opt.Ruleset, Ruleset)
	}
	text := opt.Position
	if text == "" {
		text = StartPosition
	}
	p, err := parsePosition(text)
	if err != nil {
		return nil, fmt.Errorf("submachine: position %q: %v", text, err)
	}
	return settle(p, 0, nil), nil
}

// State is the referee's full state of a Submachine Chess game
// (rules.State): immutable once built.
type State struct {
	pos     *position // never changed after settle
	ply     int
	history []uint64 // repetition keys since the last capture or pawn move, the current one last
	moves   []rules.Move
	outcome rules.Outcome
	check   bool

	canonOnce sync.Once
	canon     map[string]rules.Move // canonical text → legal move, built by canonical
	spellOnce sync.Once
	spells    []rules.Spelled // the legal moves spelled out for notation.Match, built by spelled
	wireOnce  sync.Once
	wire      []byte // the encoding, built by MarshalBinary
}

// settle finishes a state around the position p, which it then owns: the
// legal moves, the en passant square kept only while such a capture is
// legal, the repetition history (prev is the previous state's) and the
// outcome.
func settle(p *position, ply int, prev []uint64) *State {
	return settleWith(p, ply, func(key uint64) []uint64 {
		if p.halfmove == 0 || prev == nil {
			return []uint64{key}
		}
		return append(slices.Clip(prev), key)
	})
}

// settleWith is settle with the repetition history made by history from
// the position's key.
func settleWith(p *position, ply int, history func(key uint64) []uint64) *State {
	s := &State{pos: p, ply: ply}
	s.moves = p.legal(nil)
	if p.ep != rules.NoSquare && !hasEnPassant(s.moves) {
		p.ep = rules.NoSquare
	}
	key := p.key()
	s.history = history(key)
	s.check = p.inCheck(p.side)
	s.outcome = judge(p, len(s.moves), s.check, repetitions(s.history, key))
	if s.outcome.Over() {
		s.moves = nil
	}
	return s
}

func hasEnPassant(moves []rules.Move) bool {
	for _, m := range moves {
		if m.Kind == kindEnPassant {
			return true
		}
	}
	return false
}

func repetitions(history []uint64, key uint64) int {
	n := 0
	for _, k := range history {
		if k == key {
			n++
		}
	}
	return n
}

// judge decides whether the game is over (M6).
func judge(p *position, legal int, check bool, reps int) rules.Outcome {
	switch {
	case legal == 0 && check:
		return rules.Outcome{Status: rules.Win, Winner: p.side.Other(), Reason: "checkmate", Ruling: "M6"}
	case legal == 0:
		return rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "M6"}
	case reps >= 3:
		return rules.Outcome{Status: rules.Draw, Reason: "threefold repetition", Ruling: "M6"}
	case p.halfmove >= 100:
		return rules.Outcome{Status: rules.Draw, Reason: "fifty-move rule", Ruling: "M6"}
	case p.bareKings():
		return rules.Outcome{Status: rules.Draw, Reason: "insufficient material: bare kings", Ruling: "M6"}
	}
	return rules.Outcome{}
}

// Variant returns Submachine Chess.
func (s *State) Variant() rules.Variant { return Variant }

// Ruleset returns "standard".
func (s *State) Ruleset() string { return Ruleset }

// ToMove is the side whose turn it is.
func (s *State) ToMove() rules.Side { return s.pos.side }

// Ply counts the moves played since the game was created.
func (s *State) Ply() int { return s.ply }

// Moves lists the legal moves; empty when the game is over.
func (s *State) Moves() []rules.Move { return slices.Clone(s.moves) }

// Outcome says whether the game is over, how and why.
func (s *State) Outcome() rules.Outcome { return s.outcome }

// InCheck reports whether the side to move is in check.
func (s *State) InCheck() bool { return s.check }

// Position writes the position in the notation Options.Position reads.
func (s *State) Position() string { return s.pos.String() }

// Apply plays a legal move.
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, rules.GameOverError(s.Format(m), s.outcome.Ruling, s.outcome, Variant.Sides())
	}
	if !slices.Contains(s.moves, m) {
		return nil, nil, rules.Errorf(rules.Illegal, s.Format(m), "M7", "that is not a legal move here")
	}
	text := s.Format(m)
	p := s.pos.clone()
	p.make(m)
	next := settle(p, s.ply+1, s.history)
	rep := &rules.Report{Move: m, Mover: s.pos.side, Text: text}
	record := text
	var notices []lang.Text
	if m.Kind == kindTeleport {
		notices = append(notices, lang.Msg("%s teleported from %s to %s (M3)", rules.Word(names[m.Piece]), board.Name(m.From), board.Name(m.To)))
	}
	switch {
	case next.outcome.Status == rules.Win:
		record += "#"
	case next.check:
		record += "+"
		notices = append(notices, lang.Msg("%s is in check", rules.Word(sideName[p.side])))
	}
	if next.outcome.Over() {
		notices = append(notices, lang.Msg("game over: %s", next.outcome.Text(Variant.Sides())))
	}
	rep.SetAll(record, notices...)
	return next, rep, nil
}

// wire is serialisation format v1; fields are written in this order.
type wire struct {
	V        int    `json:"v"`
	Ruleset  string `json:"ruleset"`
	Position string `json:"position"`
	Ply      int    `json:"ply"`
	// History holds the repetition keys since the last capture or pawn move,
	// oldest first, each as 16 hex digits, run together; the last is the
	// position's own.
	History string `json:"history"`
}

// MarshalBinary encodes the state as JSON, format version 1:
// {"v":1,"ruleset":"standard","position":"…","ply":N,"history":"…"}.
func (s *State) MarshalBinary() ([]byte, error) {
	s.wireOnce.Do(func() {
		hist := make([]byte, 0, 16*len(s.history))
		for _, k := range s.history {
			hist = fmt.Appendf(hist, "%016x", k)
		}
		var err error
		s.wire, err = json.Marshal(wire{V: 1, Ruleset: Ruleset, Position: s.pos.String(), Ply: s.ply, History: string(hist)})
		if err != nil {
			panic(err) // a struct of strings and ints always encodes
		}
	})
	return slices.Clone(s.wire), nil
}

func (variant) Unmarshal(data []byte) (rules.State, error) {
	s, err := unmarshal(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func unmarshal(data []byte) (*State, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w wire
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("submachine: decode state: %v", err)
	}
	if dec.More() {
		return nil, errors.New("submachine: decode state: trailing data")
	}
	if w.V != 1 {
		return nil, fmt.Errorf("submachine: state format version %d, want 1", w.V)
	}
	if w.Ruleset != Ruleset {
		return nil, fmt.Errorf("submachine: unknown ruleset %q", w.Ruleset)
	}
	if w.Ply < 0 || w.Ply > 1<<20 {
		return nil, fmt.Errorf("submachine: bad ply %d", w.Ply)
	}
	p, err := parsePosition(w.Position)
	if err != nil {
		return nil, fmt.Errorf("submachine: decode state: %v", err)
	}
	n := len(w.History) / 16
	if len(w.History)%16 != 0 || n == 0 || n > p.halfmove+1 {
		return nil, fmt.Errorf("submachine: %d characters of repetition keys for a halfmove clock of %d", len(w.History), p.halfmove)
	}
	hist := make([]uint64, n)
	for i := range hist {
		h := w.History[16*i : 16*i+16]
		if hist[i], err = strconv.ParseUint(h, 16, 64); err != nil {
			return nil, fmt.Errorf("submachine: bad repetition key %q", h)
		}
	}
	// parsePosition validated the position; the history must end at it.
	s := settleWith(p, w.Ply, func(uint64) []uint64 { return hist })
	if hist[n-1] != p.key() {
		return nil, errors.New("submachine: the repetition history does not end at the position")
	}
	return s, nil
}

// Check verifies the state's consistency: a playable position (one king a
// side, piece counts, no pawn on a rank it cannot stand on, the side not to
// move not in check, the en passant square, the position key), the
// repetition history, the legal moves and the outcome.
func (s *State) Check() error {
	p := s.pos.clone()
	if err := p.validate(); err != nil {
		return fmt.Errorf("submachine: %v", err)
	}
	if s.ply < 0 {
		return fmt.Errorf("submachine: negative ply %d", s.ply)
	}
	if len(s.history) == 0 || len(s.history) > p.halfmove+1 || s.history[len(s.history)-1] != p.key() {
		return fmt.Errorf("submachine: repetition history (%d keys) does not end at the position", len(s.history))
	}
	legal := p.legal(nil)
	if p.ep != rules.NoSquare && !hasEnPassant(legal) {
		return fmt.Errorf("submachine: en passant square %s kept but no such capture is legal", board.Name(p.ep))
	}
	check := p.inCheck(p.side)
	if check != s.check {
		return errors.New("submachine: check flag out of date")
	}
	want := judge(p, len(legal), check, repetitions(s.history, p.key()))
	if want != s.outcome {
		return fmt.Errorf("submachine: outcome %+v, want %+v", s.outcome, want)
	}
	if want.Over() {
		if len(s.moves) != 0 {
			return errors.New("submachine: moves offered after the end")
		}
	} else if !slices.Equal(legal, s.moves) {
		return errors.New("submachine: legal moves out of date")
	}
	return nil
}

// Perft counts the leaves of the game tree with make/unmake on one working
// position; it judges game ends (M6) exactly as Apply does.
func (s *State) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if depth == 1 || s.outcome.Over() {
		return uint64(len(s.moves))
	}
	p := s.pos.clone()
	stack := slices.Clone(s.history)
	bufs := make([][]rules.Move, depth)
	var n uint64
	for _, m := range s.moves {
		u := p.make(m)
		n += perftNode(p, depth-1, stack, 0, bufs)
		p.unmake(m, u)
	}
	return n
}

func perftNode(p *position, depth int, stack []uint64, start int, bufs [][]rules.Move) uint64 {
	moves := p.legal(bufs[depth][:0])
	bufs[depth] = moves
	key := p.hash
	if p.ep != rules.NoSquare && hasEnPassant(moves) {
		key ^= zEP[p.ep]
	}
	stack = append(stack, key)
	if p.halfmove == 0 {
		start = len(stack) - 1
	}
	if len(moves) == 0 || p.halfmove >= 100 || p.bareKings() || repetitions(stack[start:], key) >= 3 {
		return 0
	}
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		u := p.make(m)
		n += perftNode(p, depth-1, stack, start, bufs)
		p.unmake(m, u)
	}
	return n
}
