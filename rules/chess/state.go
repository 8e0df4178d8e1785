package chess

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Variant is orthodox chess under the FIDE Laws of Chess.
var Variant rules.Variant = variant{}

// Ruleset is the name of the one ruleset: the FIDE Laws, with the draws
// the server applies by itself (see Outcome).
const Ruleset = "fide"

type variant struct{}

func (variant) ID() string          { return "chess" }
func (variant) Name() string        { return "Chess" }
func (variant) Sides() [2]string    { return [2]string{"White", "Black"} }
func (variant) Rulesets() []string  { return []string{Ruleset} }
func (variant) Board() *rules.Board { return rules.ChessBoard }
func (variant) Hidden() bool        { return false }
func (variant) Help() string        { return help }
func (variant) Unmarshal(data []byte) (rules.State, error) {
	s, err := unmarshal(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// New starts a game from the standard position, or from opt.Position as a
// FEN. opt.Seed is not used: chess has no random setup.
func (variant) New(opt rules.Options) (rules.State, error) {
	if opt.Ruleset != "" && !strings.EqualFold(opt.Ruleset, Ruleset) {
		return nil, lang.Fail("chess", "unknown ruleset %q (the only one is %q)", opt.Ruleset, Ruleset)
	}
	fen := opt.Position
	if strings.TrimSpace(fen) == "" {
		fen = StartFEN
	}
	s, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ParseFEN starts a game from a position in Forsyth–Edwards Notation. The
// halfmove clock and fullmove number may be left out. Positions that cannot
// occur in a game (two white kings, a pawn on the last rank, a castling
// right without its rook, …) are refused with the reason.
func ParseFEN(fen string) (*State, error) {
	p, err := parseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("chess: bad FEN %q: %v", fen, err)
	}
	s := &State{start: p.fen(), base: p, pos: p}
	s.settle(nil)
	return s, nil
}

// State is the referee's full state of a chess game (rules.State): the
// position, the moves since the last capture or pawn move (for
// repetitions), and the outcome. It is immutable.
type State struct {
	start string   // the FEN the game started from
	ply   int      // plies played since the start
	base  position // the position line starts from
	line  []move   // the moves from base to pos: at least the last one played
	pos   position
	legal []move   // pos's legal moves
	keys  []uint64 // repetition keys since the last capture or pawn move; pos's last
	last  string   // the SAN of the last move, "" at the start
	out   rules.Outcome

	sanOnce sync.Once
	sans    []string // the SAN of each legal move, filled on first use

	spellOnce sync.Once
	spells    []rules.Spelled // the legal moves spelled out for notation.Match, filled on first use
}

// sanList returns the SAN of every legal move, in the order of legal. It
// is computed once per state: formatting and reading moves only look it up.
func (s *State) sanList() []string {
	s.sanOnce.Do(func() {
		s.sans = make([]string, len(s.legal))
		for i, m := range s.legal {
			s.sans[i] = s.san(m)
		}
	})
	return s.sans
}

// settle computes the derived fields of a state whose pos is set: its legal
// moves, its repetition key (appended to keys) and the outcome.
func (s *State) settle(keys []uint64) {
	var buf moveBuf
	n := s.pos.gen(&buf)
	s.legal = append([]move(nil), buf[:n]...)
	s.keys = append(keys, s.pos.key(s.legal))
	s.out = s.outcome()
}

// outcome applies the rules that end a game, in order of precedence:
// checkmate (it takes precedence over the draws, FIDE 9.3 and 9.6.2),
// stalemate, a dead position, the fifty-move rule and threefold
// repetition. The server applies the last three itself, without a claim.
func (s *State) outcome() rules.Outcome {
	p := &s.pos
	if len(s.legal) == 0 {
		if p.inCheck() {
			return rules.Outcome{Status: rules.Win, Winner: rules.Side(p.side ^ 1), Reason: "checkmate", Ruling: "FIDE 5.1.1"}
		}
		return rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "FIDE 5.2.1"}
	}
	if p.deadPosition() {
		return rules.Outcome{Status: rules.Draw, Reason: "dead position: neither side can checkmate", Ruling: "FIDE 5.2.2"}
	}
	if p.half >= 100 {
		return rules.Outcome{Status: rules.Draw, Reason: "fifty-move rule: 50 moves each without a capture or pawn move", Ruling: "FIDE 9.3"}
	}
	if s.repetitions() >= 3 {
		return rules.Outcome{Status: rules.Draw, Reason: "threefold repetition", Ruling: "FIDE 9.2"}
	}
	return rules.Outcome{}
}

// repetitions counts how often the current position has stood on the board
// (FIDE 9.2.3), itself included.
func (s *State) repetitions() int {
	k := s.keys[len(s.keys)-1]
	n := 0
	for _, x := range s.keys {
		if x == k {
			n++
		}
	}
	return n
}

// play returns the state after the legal move m.
func (s *State) play(m move) *State {
	next := s.advance(m)
	next.last = s.san(m)
	return next
}

// advance is play without the SAN of the move.
func (s *State) advance(m move) *State {
	next := &State{start: s.start, ply: s.ply + 1, pos: s.pos}
	next.pos.make(m)
	var keys []uint64
	if next.pos.half == 0 {
		// A capture or pawn move: no earlier position can come back.
		next.base = s.pos
		next.line = []move{m}
	} else {
		next.base = s.base
		next.line = append(append(make([]move, 0, len(s.line)+1), s.line...), m)
		keys = append(make([]uint64, 0, len(s.keys)+1), s.keys...)
	}
	next.settle(keys)
	return next
}

// Variant returns chess.
func (s *State) Variant() rules.Variant { return Variant }

// Ruleset returns "fide".
func (s *State) Ruleset() string { return Ruleset }

// ToMove is the side to move.
func (s *State) ToMove() rules.Side { return rules.Side(s.pos.side) }

// Ply counts the moves played since the start.
func (s *State) Ply() int { return s.ply }

// Outcome says whether and how the game ended.
func (s *State) Outcome() rules.Outcome { return s.out }

// FEN is the position in Forsyth–Edwards Notation.
func (s *State) FEN() string { return s.pos.fen() }

// StartFEN is the FEN of the position the game started from.
func (s *State) StartFEN() string { return s.start }

// InCheck reports whether the side to move is in check (FIDE 3.9.1).
func (s *State) InCheck() bool { return s.pos.inCheck() }

// LastMove is the last move played in SAN, "" before the first.
func (s *State) LastMove() string { return s.last }

func toRules(m move) rules.Move {
	return rules.Move{From: rules.Square(m.from()), To: rules.Square(m.to()), Aux: rules.NoSquare,
		Piece: uint8(m.piece()), Promo: uint8(m.promo()), Kind: uint8(m.kind())}
}

// Moves lists the legal moves; none once the game is over.
func (s *State) Moves() []rules.Move {
	if s.out.Over() {
		return nil
	}
	out := make([]rules.Move, len(s.legal))
	for i, m := range s.legal {
		out[i] = toRules(m)
	}
	return out
}

func (s *State) find(m rules.Move) (move, bool) {
	for _, x := range s.legal {
		if toRules(x) == m {
			return x, true
		}
	}
	return 0, false
}

// Apply plays m. A move that is not legal gives a *rules.MoveError saying
// why, citing the FIDE Laws.
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.out.Over() {
		return nil, nil, s.gameOver(coord(m))
	}
	x, ok := s.find(m)
	if !ok {
		e := rules.Errorf(rules.Illegal, coord(m), "FIDE 3.10.1", "that is not a legal move here")
		if m.From >= 0 && m.From < 64 && m.To >= 0 && m.To < 64 {
			if _, reason, ruling := s.why(int(m.From), int(m.To), int(m.Promo), m.Piece != 0 && m.Piece != Pawn); !reason.IsZero() {
				e.SetWhy(reason, ruling)
			}
		}
		return nil, nil, e
	}
	next := s.play(x)
	rep := &rules.Report{Move: m, Mover: s.ToMove(), Text: next.last}
	var notices []lang.Text
	switch {
	case next.out.Over():
		notices = append(notices, lang.Msg("%s.", next.out.Text(Variant.Sides())))
	case next.pos.inCheck():
		notices = append(notices, lang.Msg("%s is in check (FIDE 3.9.1).", rules.Word(Variant.Sides()[next.pos.side])))
	}
	rep.SetAll(next.last, notices...)
	return next, rep, nil
}

func (s *State) gameOver(input string) error {
	return rules.GameOverError(input, s.out.Ruling, s.out, Variant.Sides())
}

// coord writes a move in coordinate notation (e2e4, e7e8q).
func coord(m rules.Move) string {
	if m.From < 0 || m.From >= 64 || m.To < 0 || m.To >= 64 {
		return fmt.Sprintf("%v", m)
	}
	promo := ""
	if m.Promo >= Knight && m.Promo <= Queen {
		promo = "  nbrq"[m.Promo : m.Promo+1]
	}
	return squareName(int(m.From)) + squareName(int(m.To)) + promo
}

// Perft counts the leaves of the game tree to depth plies, as Apply judges
// moves: a game that ends (checkmate, stalemate, a dead position, the
// fifty-move rule, threefold repetition) has no further moves. It uses the
// fast bitboard perft wherever no repetition can end the game inside the
// remaining depth, and plays states (which track repetitions) above that.
func (s *State) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.out.Over() {
		return 0
	}
	if depth <= s.fastDepth() {
		return s.pos.perft(depth)
	}
	var n uint64
	for _, m := range s.legal {
		n += s.advance(m).Perft(depth - 1)
	}
	return n
}

// fastDepth is the depth to which no threefold repetition can occur in the
// tree below s. A position recurs at the earliest 4 plies later, so with
// every position since the last capture or pawn move seen once, a third
// occurrence needs 5 plies; a position already seen twice may recur at once.
func (s *State) fastDepth() int {
	seen := make(map[uint64]int, len(s.keys))
	for _, k := range s.keys {
		seen[k]++
		if seen[k] >= 2 {
			return 1
		}
	}
	return 5
}

// MarshalBinary writes the state as JSON, version 1: the start FEN, the
// plies played, and the position from which the moves since the last
// capture or pawn move are replayed (so repetitions survive the trip).
func (s *State) MarshalBinary() ([]byte, error) {
	line := make([]string, len(s.line))
	for i, m := range s.line {
		line[i] = coord(toRules(m))
	}
	return json.Marshal(stateJSON{V: 1, Rules: Ruleset, Start: s.start, Ply: s.ply, Base: s.base.fen(), Line: line})
}

type stateJSON struct {
	V     int      `json:"v"`
	Rules string   `json:"rules"`
	Start string   `json:"start"`
	Ply   int      `json:"ply"`
	Base  string   `json:"base"`
	Line  []string `json:"line"`
}

// plyIndex numbers a position's plies from the game's first move: 0 for
// White's first move, 1 for Black's, …
func plyIndex(p *position) int { return 2*(int(p.full)-1) + int(p.side) }

func unmarshal(data []byte) (*State, error) {
	var j stateJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("chess: bad state: %v", err)
	}
	if j.V != 1 {
		return nil, fmt.Errorf("chess: state format version %d is not known (want 1)", j.V)
	}
	if j.Rules != Ruleset {
		return nil, fmt.Errorf("chess: unknown ruleset %q", j.Rules)
	}
	start, err := parseFEN(j.Start)
	if err != nil {
		return nil, fmt.Errorf("chess: bad state: start: %v", err)
	}
	base, err := parseFEN(j.Base)
	if err != nil {
		return nil, fmt.Errorf("chess: bad state: base: %v", err)
	}
	if j.Ply < len(j.Line) || (j.Ply > 0) != (len(j.Line) > 0) || j.Ply > 1<<20 {
		return nil, fmt.Errorf("chess: bad state: %d plies with %d moves to replay", j.Ply, len(j.Line))
	}
	if plyIndex(&base)+len(j.Line) != plyIndex(&start)+j.Ply {
		return nil, fmt.Errorf("chess: bad state: the move numbers of start and base disagree with %d plies", j.Ply)
	}
	s := &State{start: start.fen(), ply: j.Ply - len(j.Line), base: base, pos: base}
	s.settle(nil)
	for i, text := range j.Line {
		if s.out.Over() {
			return nil, fmt.Errorf("chess: bad state: move %d after the end of the game", i+1)
		}
		from, to, promo, ok := parseCoord(text)
		m, found := findCoord(s.legal, from, to, promo)
		if !ok || !found {
			return nil, fmt.Errorf("chess: bad state: move %q is not legal in %s", text, s.pos.fen())
		}
		next := s.advance(m)
		if i == len(j.Line)-1 {
			next.last = s.san(m)
		}
		if i > 0 && next.pos.half == 0 {
			return nil, fmt.Errorf("chess: bad state: move %q resets the halfmove clock inside the replay", text)
		}
		s = next
	}
	return s, nil
}

// Check verifies the state: a position that can occur in a game, the
// replay from base giving it, the repetition keys and the outcome.
func (s *State) Check() error {
	if err := s.pos.validate(); err != nil {
		return fmt.Errorf("chess: %v", err)
	}
	if s.pos.pt[0] != 0 {
		return fmt.Errorf("chess: stray piece bits")
	}
	start, err := parseFEN(s.start)
	if err != nil {
		return fmt.Errorf("chess: start: %v", err)
	}
	if plyIndex(&start)+s.ply != plyIndex(&s.pos) {
		return fmt.Errorf("chess: %d plies from %q do not lead to move %d", s.ply, s.start, s.pos.full)
	}
	if (s.ply > 0) != (len(s.line) > 0) || len(s.line) > s.ply || (s.ply > 0) != (s.last != "") {
		return fmt.Errorf("chess: move line of %d moves for %d plies", len(s.line), s.ply)
	}
	p := s.base
	for _, m := range s.line {
		p.make(m)
	}
	if p != s.pos {
		return fmt.Errorf("chess: replaying the line from base gives %s, not %s", p.fen(), s.pos.fen())
	}
	var buf moveBuf
	n := s.pos.gen(&buf)
	if n != len(s.legal) || s.pos.key(s.legal) != s.keys[len(s.keys)-1] {
		return fmt.Errorf("chess: cached legal moves or position key are stale")
	}
	if len(s.keys) > int(s.pos.half)+1 {
		return fmt.Errorf("chess: %d repetition keys with halfmove clock %d", len(s.keys), s.pos.half)
	}
	if o := s.outcome(); o != s.out {
		return fmt.Errorf("chess: outcome %v, want %v", s.out, o)
	}
	return nil
}
