package baltic

import (
	"fmt"
	"slices"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// State is the referee's full state of a Baltic Sea Chess game
// (rules.State): the position and what does not change with a move. It is
// never changed once built: Apply works on a copy.
type State struct {
	position
	rs      ruleset
	first   rules.Side // who moved first (B1)
	seed    uint64     // the shuffle's seed (B5), kept for the record
	start   start      // where the first position came from
	outcome rules.Outcome
}

// position is what a move changes: the board, the side to move and the
// counts. It is a plain value: a copy is a move's scratch space (play,
// Perft).
type position struct {
	cells  [64]cell
	toMove rules.Side
	ply    int    // moves played since the start (or since ply= of a position)
	points [2]int // victory points (B4, B5)
	count  [2]int // pieces (squares topped by the side's disc, B4.4)
}

var _ rules.State = (*State)(nil)
var _ rules.Perfter = (*State)(nil)

func (s *State) Variant() rules.Variant { return Variant }
func (s *State) Ruleset() string        { return s.rs.String() }
func (s *State) ToMove() rules.Side     { return s.toMove }
func (s *State) Ply() int               { return s.ply }
func (s *State) Outcome() rules.Outcome { return s.outcome }

// Points returns the victory points of both sides (B4, B5).
func (s *State) Points() [2]int { return s.points }

// round is the round being played in sc2022 (B5): both sides move once per
// round; the server's round number after a move is (moves+1)/2, so the
// side moving at ply p plays round p/2+1.
func (s *State) round() int { return s.ply/2 + 1 }

// gain is what moving the piece on from to to scores, and the height of the
// stack that results: B4.1–B4.3 for holdorf, B5 for sc2022. ok is false for
// a holdorf move that would build a stack of 4 (B3.2).
func (s *State) gain(from, to rules.Square) (pts, height int, ok bool) {
	c, t := s.cells[from], s.cells[to]
	height = c.height() + t.height()
	far := board.Rank(to) == homeRank[c.owner().Other()]
	switch s.rs {
	case holdorf:
		if height >= 4 {
			return 0, height, false
		}
		if height == 3 || far {
			pts = 1 // B4.1, B4.2, B4.3
		}
	case sc2022:
		if height >= 3 {
			pts++
		}
		if far && light(c.animal()) {
			pts++
		}
	}
	return pts, height, true
}

// forEachMove calls fn for every legal move of side, in a fixed order
// (squares a1…h8, then the animal's directions), until fn returns false.
func (s *State) forEachMove(side rules.Side, fn func(from, to rules.Square) bool) {
	for _, sq := range board.Squares() {
		c := s.cells[sq]
		if !c.ownedBy(side) {
			continue
		}
		for _, to := range targets[side][c.animal()][sq] {
			t := s.cells[to]
			if t.ownedBy(side) {
				continue // B3.2: never onto an own piece
			}
			if s.rs == holdorf && c.height()+t.height() >= 4 {
				continue // B3.2: never a stack of 4
			}
			if !fn(sq, to) {
				return
			}
		}
	}
}

func (s *State) move(from, to rules.Square) rules.Move {
	m := rules.Move{From: from, To: to, Aux: rules.NoSquare, Piece: s.cells[from].animal()}
	if !s.cells[to].empty() {
		m.Kind = KindOnto
	}
	return m
}

// Moves lists the legal moves of the side to move; none once the game is
// over.
func (s *State) Moves() []rules.Move {
	if s.outcome.Over() {
		return nil
	}
	out := make([]rules.Move, 0, 32)
	s.forEachMove(s.toMove, func(from, to rules.Square) bool {
		out = append(out, s.move(from, to))
		return true
	})
	return out
}

func (s *State) hasMove(side rules.Side) bool {
	found := false
	s.forEachMove(side, func(_, _ rules.Square) bool { found = true; return false })
	return found
}

// legal reports whether m is exactly one of the moves Moves lists.
func (s *State) legal(m rules.Move) bool {
	if s.outcome.Over() || !board.Exists(m.From) || !board.Exists(m.To) {
		return false
	}
	c := s.cells[m.From]
	if !c.ownedBy(s.toMove) || !slices.Contains(targets[s.toMove][c.animal()][m.From], m.To) {
		return false
	}
	t := s.cells[m.To]
	if t.ownedBy(s.toMove) {
		return false
	}
	if _, _, ok := s.gain(m.From, m.To); !ok {
		return false
	}
	return m == s.move(m.From, m.To)
}

// play makes the move on the receiver (a fresh copy) and returns the points
// it scored. The move must be legal.
func (s *State) play(from, to rules.Square) int {
	c, t := s.cells[from], s.cells[to]
	pts, h, _ := s.gain(from, to)
	me := s.toMove
	if !t.empty() {
		s.count[me.Other()]-- // B3.2: the stack below now belongs to the mover
	}
	s.cells[from] = 0
	if pts > 0 {
		s.cells[to] = 0 // B4.1, B4.2, B5: the piece leaves the board as points
		s.count[me]--
		s.points[me] += pts
	} else {
		nc := mkCell(me, c.animal(), h)
		switch {
		case t.empty():
			nc = nc.withUnder(c.under()) // a stack moves whole (B3.1)
		case h == 2:
			nc = nc.withUnder(t.animal()) // the mover on top of a single disc (B3.2)
		}
		s.cells[to] = nc
	}
	s.ply++
	s.toMove = me.Other()
	return pts
}

// Apply plays m and reports it with its points. A move that is not one of
// Moves gives a *rules.MoveError and no state; the receiver never changes.
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, rules.GameOverError(s.safeFormat(m), "", s.outcome, Variant.Sides())
	}
	if !s.legal(m) {
		text := s.safeFormat(m)
		_, reason, ruling := s.diagnose(text, notation.Read(text))
		if reason.IsZero() {
			reason = lang.Msg("that is not a legal move here")
		}
		e := &rules.MoveError{Input: text, Kind: rules.Illegal}
		e.SetWhy(reason, ruling)
		return nil, nil, e
	}
	mover := s.toMove
	text := s.Format(m)
	ns := *s
	pts := ns.play(m.From, m.To)
	ns.outcome = ns.judge()
	rep := &rules.Report{Move: m, Mover: mover, Text: text}
	var notices []lang.Text
	if pts > 0 {
		notices = append(notices, lang.Msg("%s scores %s (%s): %s %d, %s %d.",
			rules.Word(sideName(mover)), pointText(pts), s.scoreReason(m.From, m.To),
			rules.Word(sideName(rules.White)), ns.points[0], rules.Word(sideName(rules.Black)), ns.points[1]))
	}
	if ns.outcome.Over() {
		notices = append(notices, lang.Msg("Game over: %s.", ns.outcome.Text(Variant.Sides())))
	}
	rep.SetAll(recordText(text, pts), notices...)
	return &ns, rep, nil
}

// pointText is n points, as a message.
func pointText(n int) lang.Text {
	if n == 1 {
		return lang.Msg("1 point")
	}
	return lang.Msg("%d points", n)
}

// scoreReason says why a move scores, citing the ruling.
func (s *State) scoreReason(from, to rules.Square) lang.Text {
	c := s.cells[from]
	h := c.height() + s.cells[to].height()
	far := board.Rank(to) == homeRank[c.owner().Other()]
	if s.rs == sc2022 {
		far = far && light(c.animal())
		switch {
		case h >= 3 && far:
			return lang.Msg("a stack of %d on the far rank, %s", h, "B5")
		case h >= 3:
			return lang.Msg("a stack of %d, %s", h, "B5")
		}
		return lang.Msg("the far rank, %s", "B5")
	}
	switch {
	case h == 3 && far:
		return lang.Msg("a stack of %d on the far rank, %s", 3, "B4.3")
	case h == 3:
		return lang.Msg("a stack of %d, %s", 3, "B4.1")
	}
	return lang.Msg("the far rank, %s", "B4.2")
}

// judge decides whether the game is over: B4.4 for holdorf, B5 for sc2022.
func (s *State) judge() rules.Outcome {
	if s.rs == sc2022 {
		return s.judgeSC2022()
	}
	for side := range rules.Side(2) {
		if s.points[side] >= holdorfTarget {
			return rules.Outcome{Status: rules.Win, Winner: side, Reason: "3 victory points", Ruling: "B4.4"}
		}
	}
	switch {
	case s.count[0] <= 1 && s.count[1] <= 1:
		return rules.Outcome{Status: rules.Draw, Reason: "both sides are left with a single piece", Ruling: "B4.4"}
	case s.count[0] <= 1:
		return rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "the opponent is left with a single piece", Ruling: "B4.4"}
	case s.count[1] <= 1:
		return rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "the opponent is left with a single piece", Ruling: "B4.4"}
	}
	if !s.hasMove(s.toMove) {
		return rules.Outcome{Status: rules.Win, Winner: s.toMove.Other(), Reason: "the opponent has no legal move", Ruling: "B4.4"}
	}
	return rules.Outcome{}
}

// judgeSC2022 is B5 as the server (GameState.isOver, Game.checkWinCondition)
// has it: the game is judged only after a full round (an even number of
// moves), and ends when a side has 2 points or round 30 is over; more
// points win, then the light pieces' distances from their home rank,
// largest first, pairwise over the shorter list; otherwise a draw. A side
// that cannot move on its turn loses (B4.4; the server would disqualify it,
// as it can send no valid move).
func (s *State) judgeSC2022() rules.Outcome {
	if s.ply%2 == 0 && (s.ply >= 2*sc2022Rounds || s.points[0] >= sc2022Target || s.points[1] >= sc2022Target) {
		switch {
		case s.points[0] > s.points[1]:
			return rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "more points", Ruling: "B5"}
		case s.points[1] > s.points[0]:
			return rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "more points", Ruling: "B5"}
		}
		if w, ok := s.tieBreak(); ok {
			return rules.Outcome{Status: rules.Win, Winner: w, Reason: "equal points, light pieces further forward", Ruling: "B5"}
		}
		return rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"}
	}
	if !s.hasMove(s.toMove) {
		return rules.Outcome{Status: rules.Win, Winner: s.toMove.Other(), Reason: "the opponent has no legal move", Ruling: "B5, B4.4"}
	}
	return rules.Outcome{}
}

// lightDistances lists, largest first, how far each light piece (cockle,
// starfish, gull on top, B5) of side stands from its home rank.
func (s *State) lightDistances(side rules.Side) []int {
	var d []int
	for _, sq := range board.Squares() {
		c := s.cells[sq]
		if c.ownedBy(side) && light(c.animal()) {
			r := board.Rank(sq)
			if side == rules.Black {
				r = 7 - r
			}
			d = append(d, r)
		}
	}
	slices.Sort(d)
	slices.Reverse(d)
	return d
}

// tieBreak is B5's tie-break: the first pair (largest distance first) that
// differs decides; only as many pairs as the side with fewer light pieces
// has are compared.
func (s *State) tieBreak() (rules.Side, bool) {
	w, b := s.lightDistances(rules.White), s.lightDistances(rules.Black)
	for i := range min(len(w), len(b)) {
		switch {
		case w[i] > b[i]:
			return rules.White, true
		case b[i] > w[i]:
			return rules.Black, true
		}
	}
	return 0, false
}

// Check verifies the state: the position's invariants (validate), the
// piece counters and the stored outcome.
func (s *State) Check() error {
	if err := s.validate(); err != nil {
		return fmt.Errorf("baltic: %v", err)
	}
	var count [2]int
	for _, sq := range board.Squares() {
		if c := s.cells[sq]; !c.empty() {
			count[c.owner()]++
		}
	}
	if count != s.count {
		return fmt.Errorf("baltic: piece counters %v, board has %v", s.count, count)
	}
	if s.outcome != s.judge() {
		return fmt.Errorf("baltic: stored outcome %+v, the position says %+v", s.outcome, s.judge())
	}
	if s.start == startShuffled && s.rs != sc2022 {
		return fmt.Errorf("baltic: only sc2022 shuffles its setup")
	}
	if s.start != startShuffled && s.seed != 0 {
		return fmt.Errorf("baltic: a seed %d kept for a start that was not shuffled", s.seed)
	}
	return nil
}

// Perft counts leaves to depth with moves played on copies of the arrays.
func (s *State) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.outcome.Over() {
		return 0
	}
	var n uint64
	s.forEachMove(s.toMove, func(from, to rules.Square) bool {
		if depth == 1 {
			n++
			return true
		}
		ns := *s
		ns.play(from, to)
		ns.outcome = ns.judge()
		n += ns.Perft(depth - 1)
		return true
	})
	return n
}
