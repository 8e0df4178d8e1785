package transporter

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// drawClock is the T6 draw: 50 moves each (100 half-moves) without a
// capture or a Fighter move.
const drawClock = 100

// State is the referee's full state of a Transporter Chess game
// (rules.State): immutable; Apply returns a new one.
type State struct {
	ruleset string
	pos     position
	ply     int
	clock   int      // half-moves since the last capture or Fighter move (T6)
	hist    []uint64 // hashes since the last capture or Fighter move, the current one last
	moves   []rules.Move
	outcome rules.Outcome
	parse   *parseCache
}

// parseCache holds what Parse needs, each part built on first use.
type parseCache struct {
	exactOnce, spellOnce sync.Once
	exact                map[string]rules.Move // canonical text → move
	spells               []rules.Spelled       // the legal moves spelled out for notation.Match
}

// newState completes a state from its position and counters: the legal
// moves and the outcome.
func newState(ruleset string, p position, clock, ply int, hist []uint64) *State {
	s := &State{ruleset: ruleset, pos: p, ply: ply, clock: clock, hist: hist, parse: &parseCache{}}
	s.outcome = s.judge()
	if !s.outcome.Over() {
		s.moves = s.pos.legal(make([]rules.Move, 0, 64))
		if len(s.moves) == 0 {
			s.outcome = s.noMoveOutcome()
		}
	}
	return s
}

// judge gives the T6 results that do not depend on the legal moves.
func (s *State) judge() rules.Outcome {
	for _, side := range [2]rules.Side{s.pos.toMove, s.pos.toMove.Other()} {
		if s.pos.bare(side) {
			return rules.Outcome{Status: rules.Win, Winner: side.Other(),
				Reason: sideNames[side] + " is reduced to a bare Admiral", Ruling: "T6"}
		}
	}
	if s.clock >= drawClock {
		return rules.Outcome{Status: rules.Draw, Reason: "50 moves each without a capture or a Fighter move", Ruling: "T6"}
	}
	n := 0
	for _, h := range s.hist {
		if h == s.pos.hash {
			n++
		}
	}
	if n >= 3 {
		return rules.Outcome{Status: rules.Draw, Reason: "threefold repetition", Ruling: "T6"}
	}
	return rules.Outcome{}
}

// noMoveOutcome is the result when the side to move has no legal move:
// checkmate, or the loss T6 puts in place of stalemate.
func (s *State) noMoveOutcome() rules.Outcome {
	o := rules.Outcome{Status: rules.Win, Winner: s.pos.toMove.Other(), Ruling: "T6"}
	if s.pos.inCheck() {
		o.Reason = "checkmate"
	} else {
		o.Reason = sideNames[s.pos.toMove] + " has no legal move (there is no stalemate)"
	}
	return o
}

var sideNames = [2]string{"White", "Black"}

// Variant returns the Transporter Chess variant.
func (s *State) Variant() rules.Variant { return Variant }

// Ruleset returns the ruleset's name.
func (s *State) Ruleset() string { return s.ruleset }

// ToMove is the side whose turn it is.
func (s *State) ToMove() rules.Side { return s.pos.toMove }

// Ply counts the moves played.
func (s *State) Ply() int { return s.ply }

// Moves lists the legal moves, each transport destination a move of its
// own (T4.1); none once the game is over.
func (s *State) Moves() []rules.Move { return append([]rules.Move(nil), s.moves...) }

// Outcome says whether and how the game ended (T6).
func (s *State) Outcome() rules.Outcome { return s.outcome }

// Position writes the state in the notation of StartPosition.
func (s *State) Position() string { return s.pos.format(s.clock, s.ply) }

func (s *State) isLegal(m rules.Move) bool {
	for _, l := range s.moves {
		if l == m {
			return true
		}
	}
	return false
}

// Apply plays a legal move.
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, rules.GameOverError(s.Format(m), s.outcome.Ruling, s.outcome, sideNames)
	}
	if !s.isLegal(m) {
		text := s.Format(m)
		e := rules.Errorf(rules.Illegal, text, "", "that is not a legal move here")
		if _, reason, ruling := s.diagnose(text, notation.Read(text)); !reason.IsZero() {
			e.SetWhy(reason, ruling)
		}
		return nil, nil, e
	}
	p := s.pos
	mover := p.toMove
	u := p.make(m)
	clock, hist := s.clock+1, make([]uint64, 0, len(s.hist)+1)
	if resets(m) {
		clock = 0
	} else {
		hist = append(hist, s.hist...)
	}
	hist = append(hist, p.hash)
	next := newState(s.ruleset, p, clock, s.ply+1, hist)

	text := s.Format(m)
	record := text
	var notes []lang.Text
	if m.Aux != rules.NoSquare {
		notes = append(notes, lang.Msg("the %s landing on %s is transported to %s (T4.1)",
			rules.Word(kindNames[m.Piece]), board.Name(m.To), board.Name(m.Aux)))
	} else if transporterSq[m.To] {
		notes = append(notes, lang.Msg("the %s stays on %s: no transporter square opposite is free (T4.1)",
			rules.Word(kindNames[m.Piece]), board.Name(m.To)))
	}
	if u.captured != empty {
		notes = append(notes, lang.Msg("%s's %s on %s is captured", rules.Word(sideNames[mover.Other()]), rules.Word(kindNames[kindOf(u.captured)]), board.Name(m.To)))
	}
	if m.Promo != 0 {
		if strings.HasPrefix(article(kindNames[m.Promo]), "an ") {
			notes = append(notes, lang.Msg("the %s promotes to an %s (T5)", rules.Word(kindNames[m.Piece]), rules.Word(kindNames[m.Promo])))
		} else {
			notes = append(notes, lang.Msg("the %s promotes to a %s (T5)", rules.Word(kindNames[m.Piece]), rules.Word(kindNames[m.Promo])))
		}
	}
	if next.pos.inCheck() {
		if next.outcome.Reason == "checkmate" {
			record += "#"
		} else {
			record += "+"
			notes = append(notes, lang.Msg("%s is in check", rules.Word(sideNames[mover.Other()])))
		}
	}
	if next.outcome.Over() {
		notes = append(notes, lang.Msg("game over: %s", next.outcome.Text(sideNames)))
	}
	rep := &rules.Report{Move: m, Mover: mover, Text: text}
	rep.SetAll(record, notes...)
	return next, rep, nil
}

// Format writes a move in the T7 notation: Rd1-d7, Cd4xd8, Rd3-a3@a8,
// Fc8-d9=S.
func (s *State) Format(m rules.Move) string {
	var b strings.Builder
	if m.Piece < numKinds && m.Piece != empty {
		b.WriteByte(letters[m.Piece])
	} else {
		b.WriteByte('?')
	}
	b.WriteString(board.Name(m.From))
	if m.Kind == capture {
		b.WriteByte('x')
	} else {
		b.WriteByte('-')
	}
	b.WriteString(board.Name(m.To))
	if m.Aux != rules.NoSquare {
		b.WriteString("@" + board.Name(m.Aux))
	}
	if m.Promo != 0 && m.Promo < numKinds {
		b.WriteString("=" + letters[m.Promo:m.Promo+1])
	}
	return b.String()
}

// Parse reads a move for the side to move (see notation.go).
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.GameOverError(text, s.outcome.Ruling, s.outcome, sideNames)
	}
	if m, ok := s.exact()[strings.TrimRight(strings.TrimSpace(text), "+#")]; ok {
		return m, nil
	}
	return notation.Match(text, s.spelled(), s.diagnose)
}

// View shows the board; nothing in this game is hidden, so every viewer
// sees the same (Black's board turned round).
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	for _, sq := range squares {
		if c := s.pos.cells[sq]; c != empty {
			view.Cells[sq] = pieceText(c)
			view.Put(sq, rules.Piece{Side: sideOf(c), Kind: strings.ToLower(kindNames[kindOf(c)]), Promoted: c&promotedBit != 0})
		}
	}
	if !s.outcome.Over() && s.pos.inCheck() {
		view.Say(lang.Msg("%s's Admiral is in check.", rules.Word(sideNames[s.pos.toMove])))
	}
	view.Say(lang.Msg("Half-moves since the last capture or Fighter move: %d (a draw at %d, T6).", s.clock, drawClock))
	view.Kinds = kinds
	view.Special = []rules.Special{{Kind: "transporter", Ruling: "T4", Squares: board.Marked(rules.MarkTransporter)}}
	view.Legend = legend
	return view
}

// kinds are the pieces in the order of a piece list, as T2 lists them.
var kinds = func() []string {
	out := make([]string, 0, numKinds-1)
	for _, n := range kindNames[1:] {
		out = append(out, strings.ToLower(n))
	}
	return out
}()

var legend = lang.Keys(
	"White upper case, Black lower case (T2):",
	"A Admiral   C Commodore   R Commander   B Assistant   M First Mate",
	"D Advisor   F Fighter     S Super Fighter             I Interference",
	"+ after a letter: promoted once, never promotes again (T5)",
	"o transporter square (T4)   . empty square",
)

// stateJSON is the serialised form; the field order is the format.
type stateJSON struct {
	V        int      `json:"v"`
	Ruleset  string   `json:"ruleset"`
	Position string   `json:"position"`
	History  []string `json:"history"`
}

// MarshalBinary writes version 1: JSON with the position (clock and ply
// included) and the Zobrist keys of the positions since the last capture or
// Fighter move, for the repetition draw (T6).
func (s *State) MarshalBinary() ([]byte, error) {
	h := make([]string, len(s.hist))
	var buf [8]byte
	for i, x := range s.hist {
		binary.BigEndian.PutUint64(buf[:], x)
		h[i] = hex.EncodeToString(buf[:])
	}
	return json.Marshal(stateJSON{V: 1, Ruleset: s.ruleset, Position: s.Position(), History: h})
}

func unmarshal(data []byte) (*State, error) {
	var j stateJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("transporter: bad state: %v", err)
	}
	if j.V != 1 {
		return nil, fmt.Errorf("transporter: state format version %d is unknown", j.V)
	}
	if j.Ruleset != "standard" {
		return nil, fmt.Errorf("transporter: unknown ruleset %q", j.Ruleset)
	}
	p, clock, ply, err := parsePosition(j.Position)
	if err != nil {
		return nil, err
	}
	if len(j.History) == 0 || len(j.History) > clock+1 || len(j.History) > ply+1 {
		return nil, fmt.Errorf("transporter: bad state: %d history entries for clock %d and ply %d", len(j.History), clock, ply)
	}
	hist := make([]uint64, len(j.History))
	for i, x := range j.History {
		b, err := hex.DecodeString(x)
		if err != nil || len(b) != 8 {
			return nil, fmt.Errorf("transporter: bad state: history entry %q", x)
		}
		hist[i] = binary.BigEndian.Uint64(b)
	}
	if hist[len(hist)-1] != p.hash {
		return nil, fmt.Errorf("transporter: bad state: the history does not end with the position")
	}
	return newState(j.Ruleset, p, clock, ply, hist), nil
}

// Check verifies the state's invariants.
func (s *State) Check() error {
	p := s.pos
	if err := p.index(); err != nil {
		return err
	}
	if p != s.pos {
		return fmt.Errorf("transporter: derived fields (Admirals, counts, hash) out of date")
	}
	if s.pos.attacked(s.pos.admiral[s.pos.toMove.Other()], s.pos.toMove) {
		return fmt.Errorf("transporter: the side that just moved is in check")
	}
	if s.clock < 0 || s.clock > drawClock || s.ply < 0 {
		return fmt.Errorf("transporter: clock %d or ply %d out of range", s.clock, s.ply)
	}
	if len(s.hist) == 0 || len(s.hist) > s.clock+1 || len(s.hist) > s.ply+1 || s.hist[len(s.hist)-1] != s.pos.hash {
		return fmt.Errorf("transporter: repetition history inconsistent")
	}
	if s.outcome.Over() != (len(s.moves) == 0) {
		return fmt.Errorf("transporter: outcome %v with %d moves", s.outcome, len(s.moves))
	}
	if want := newState(s.ruleset, s.pos, s.clock, s.ply, s.hist); want.outcome != s.outcome || len(want.moves) != len(s.moves) {
		return fmt.Errorf("transporter: outcome or moves out of date")
	}
	return nil
}

// Perft counts the leaves of the game tree to depth plies with make/unmake,
// stopping where the game ends (T6) as Apply would.
func (s *State) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	p := s.pos
	hist := append(make([]uint64, 0, len(s.hist)+depth), s.hist...)
	bufs := make([][]rules.Move, depth+1)
	for i := range bufs {
		bufs[i] = make([]rules.Move, 0, 128)
	}
	return perft(&p, s.clock, hist, 0, depth, bufs)
}

// perft counts from p; hist[base:] are the positions since the last reset.
func perft(p *position, clock int, hist []uint64, base, depth int, bufs [][]rules.Move) uint64 {
	if p.bare(rules.White) || p.bare(rules.Black) || clock >= drawClock {
		return 0
	}
	n := 0
	for _, h := range hist[base:] {
		if h == p.hash {
			n++
		}
	}
	if n >= 3 {
		return 0
	}
	moves := p.pseudo(bufs[depth][:0])
	bufs[depth] = moves
	me := p.toMove
	var total uint64
	for _, m := range moves {
		u := p.make(m)
		if !p.attacked(p.admiral[me], me.Other()) {
			if depth == 1 {
				total++
			} else if resets(m) {
				total += perft(p, 0, append(hist, p.hash), len(hist), depth-1, bufs)
			} else {
				total += perft(p, clock+1, append(hist, p.hash), base, depth-1, bufs)
			}
		}
		p.unmake(m, u)
	}
	return total
}
