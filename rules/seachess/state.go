package seachess

import (
	"slices"
	"sync"

	"github.com/bottlepost/bottlepost/rules"
)

// State is the referee's full state of a Seachess game (rules.State). It is
// immutable: Apply returns a new one.
type State struct {
	pos     position
	ruleset string
	// hist holds the position hashes since the last removal or boat move,
	// the current one last (S9's repetition).
	hist []uint64
	// inCheck and subCheck are the side to move's check status as the
	// referee announced it (S5.8, S10.2): public facts.
	inCheck, subCheck bool
	outcome           rules.Outcome
	cache             *moveCache
}

// moveCache holds, computed once, the moves the side to move may submit.
type moveCache struct {
	once  sync.Once
	moves []rules.Move
	texts []string
	// notation is the position notation, written once for MarshalBinary.
	notationOnce sync.Once
	notation     string
}

var _ rules.State = (*State)(nil)

// newState wraps a position: it works out the check status, the repetition
// history and the outcome.
func newState(p position, ruleset string, prev []uint64) *State {
	s := &State{pos: p, ruleset: ruleset, cache: &moveCache{}}
	s.inCheck, s.subCheck = p.check(p.toMove)
	h := p.hash()
	if p.clock == 0 || len(prev) == 0 {
		s.hist = []uint64{h}
	} else {
		s.hist = append(prev[:len(prev):len(prev)], h)
	}
	s.outcome = s.computeOutcome()
	return s
}

// Variant returns Seachess.
func (s *State) Variant() rules.Variant { return Variant }

// Ruleset returns the ruleset's name.
func (s *State) Ruleset() string { return s.ruleset }

// ToMove is the side whose turn it is.
func (s *State) ToMove() rules.Side { return s.pos.toMove }

// Ply counts the moves played.
func (s *State) Ply() int { return s.pos.ply }

// Outcome says whether the game is over.
func (s *State) Outcome() rules.Outcome { return s.outcome }

// known returns the moves the side to move may submit, computed once
// (pos.submittable).
func (s *State) known() *moveCache {
	c := s.cache
	c.once.Do(func() {
		c.moves = s.pos.submittable(s.inCheck)
		c.texts = make([]string, len(c.moves))
		for i, m := range c.moves {
			c.texts[i] = s.Format(m)
		}
	})
	return c
}

// submittable lists the moves the side to move may submit (S8.3): every
// move its pieces can make on its own board (pos.project), kept unless no
// hidden state consistent with what it knows would let the referee accept
// it. What it knows: its board, the announced check (announced), how many
// submarines the opponent has under water (each dive takes a submarine off
// the public board, and every loss of one is announced, S10.2), and
// whether the opponent has ever made a hidden move that changed nothing on
// the public board, which is how a mine is laid (pos.veiled). Nothing else
// of the opponent's hidden state enters, so the list tells nothing (S10).
func (p *position) submittable(announced bool) []rules.Move {
	x := p.toMove
	y := x.Other()
	w := p.project(x)
	mines, subs := p.veiled[y], int(p.nuw[y])
	moves := w.pseudo(make([]rules.Move, 0, 96), announced)
	out := moves[:0]
	for _, m := range moves {
		if w.mayStand(m, announced, mines, subs) {
			out = append(out, m)
		}
	}
	return slices.Clip(out)
}

// mayStand reports whether the referee might accept m, played on a side's
// board w (pos.project) by the side to move, given that the opponent may
// have laid mines w does not show (mines) and has subs submarines under
// water (S8.3). It errs only toward yes: a move it keeps may be refused, a
// move it drops would be refused whatever the hidden state. A commando
// ship that may step onto an unseen mine may stand: the mine strikes first
// and its side loses (S3.5).
func (w *position) mayStand(m rules.Move, announced, mines bool, subs int) bool {
	x := w.toMove
	y := x.Other()
	switch {
	case m.Kind == mvCastleT || m.Kind == mvCastleC:
		// S8.2, judged before the move: no submarine has come up yet, so
		// only a mine can hide an attack on a square passed or landed on.
		if announced {
			return false
		}
		for _, t := range castlingOf(x, m.Kind).pass {
			if !w.mayBeSafe(t, y, mines, 0) {
				return false
			}
		}
		if mines {
			return true // a mine on its way would strike it first (S3.5)
		}
	case m.Kind == mvNormal && m.Piece == uint8(commando) && mines:
		if c := w.sq[m.To]; c == 0 || c == mk(cruiser, y) {
			return true // an empty square, or a cruiser, may hide a mine (S3.3)
		}
	}
	q := *w
	q.play(m, nil, false)
	k := q.king[x]
	return k == noSq || q.mayBeSafe(k, y, mines, subs)
}

// knowledge is the position as the side to move knows it (pos.project)
// and whether it knows itself in check: attacked there, or told so
// (announced). The diagnosis of a refused text starts from it.
func (p *position) knowledge(announced bool) (position, bool) {
	x := p.toMove
	w := p.project(x)
	return w, announced || (w.king[x] != noSq && w.attacked(w.king[x], x.Other()))
}

// Moves lists what the side to move may submit (S8.3): the referee may
// still refuse one of them.
func (s *State) Moves() []rules.Move {
	if s.outcome.Over() {
		return nil
	}
	return slices.Clone(s.known().moves)
}

// anyAccepted reports whether the referee, judging with full information,
// accepts at least one move the side to move may submit (S8.3, S9).
func (s *State) anyAccepted() bool {
	// Most often the first move tried is accepted.
	for _, m := range s.known().moves {
		if s.pos.legal(m, s.inCheck) {
			return true
		}
	}
	return false
}

// repetitions counts how often the current position has occurred.
func (s *State) repetitions() int {
	n := 0
	cur := s.hist[len(s.hist)-1]
	for _, h := range s.hist {
		if h == cur {
			n++
		}
	}
	return n
}

// drawClock is S9's "75 moves by each side" in plies.
const drawClock = 150

func (s *State) computeOutcome() rules.Outcome {
	for side := rules.White; side <= rules.Black; side++ {
		if s.pos.king[side] == noSq {
			return rules.Outcome{Status: rules.Win, Winner: side.Other(),
				Reason: "commando ship lost to a mine", Ruling: "S3.5"}
		}
	}
	if !s.anyAccepted() {
		if s.inCheck {
			return rules.Outcome{Status: rules.Win, Winner: s.pos.toMove.Other(), Reason: "checkmate", Ruling: "S9"}
		}
		return rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "S9"}
	}
	if s.repetitions() >= 4 {
		return rules.Outcome{Status: rules.Draw, Reason: "fourth repetition of the position", Ruling: "S9"}
	}
	if s.pos.clock >= drawClock {
		return rules.Outcome{Status: rules.Draw, Reason: "75 moves each without capture or boat move", Ruling: "S9"}
	}
	return rules.Outcome{}
}

// Apply plays m: it must be one of Moves, and the referee, judging with
// full information, may refuse it (S8.3).
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, rules.GameOverError(s.Format(m), "", s.outcome, Variant.Sides())
	}
	if !slices.Contains(s.known().moves, m) {
		return nil, nil, rules.Errorf(rules.Illegal, s.Format(m), "", "that is not a legal move here")
	}
	fx := &effects{reloadM: noSq, reloadT: noSq}
	q, ok := s.pos.judge(m, s.inCheck, fx)
	if !ok {
		return nil, nil, refusal(s.Format(m))
	}
	next := newState(q, s.ruleset, s.hist)
	return next, s.report(m, next, fx), nil
}

// refusal is the referee's answer to a move that leaves the commando ship
// in check: it says nothing about why (S8.3).
func refusal(input string) *rules.MoveError {
	return rules.Errorf(rules.Refused, input, "S8.3", "the referee refuses it: your commando ship would be (or stay) in check; please send another move")
}

// Perft counts the moves the referee accepts, depth plies deep: the same
// count as rules.Perft's Moves-and-Apply walk, without building reports.
func (s *State) Perft(depth int) uint64 {
	if s.outcome.Over() || depth <= 0 {
		if depth <= 0 {
			return 1
		}
		return 0
	}
	return perft(&s.pos, s.hist, s.inCheck, depth)
}

func perft(p *position, hist []uint64, inCheck bool, depth int) uint64 {
	// Every move the referee could accept is among the moves of the full
	// position (pos.pseudo), and each side's list holds all of those it
	// accepts (TestS8_3_ListHoldsEveryAcceptedMove), so the count needs
	// no side's list.
	moves := p.pseudo(make([]rules.Move, 0, 96), inCheck)
	var n uint64
	for _, m := range moves {
		if depth == 1 {
			if p.legal(m, inCheck) {
				n++
			}
			continue
		}
		q, ok := p.judge(m, inCheck, nil)
		if !ok {
			continue
		}
		if q.king[rules.White] == noSq || q.king[rules.Black] == noSq || q.clock >= drawClock {
			continue
		}
		h := q.hash()
		var next []uint64
		if q.clock == 0 {
			next = []uint64{h}
		} else {
			next = append(hist[:len(hist):len(hist)], h)
			reps := 0
			for _, o := range next {
				if o == h {
					reps++
				}
			}
			if reps >= 4 {
				continue
			}
		}
		qc, _ := q.check(q.toMove)
		n += perft(&q, next, qc, depth-1)
	}
	return n
}

// hash is the position key for S9's repetition: everything in the full
// position (hidden state, loads, directions, castling rights, the
// aircraft, each submarine's count), and the en passant right only when an
// en passant capture is actually possible (S9 as amended, FIDE 9.2.3).
func (p *position) hash() uint64 {
	h := mix(uint64(p.toMove)<<32 | uint64(p.castle)<<16 | uint64(uint16(p.epRight())))
	for _, s := range brd.Squares() {
		if c := p.sq[s]; c != 0 {
			h ^= mix(1<<40 | uint64(s)<<16 | uint64(c)<<8 | uint64(p.attr[s]))
		}
		if m := p.mine[s]; m != 0 {
			h ^= mix(2<<40 | uint64(s)<<8 | uint64(m))
		}
		for side := range 2 {
			if v := p.uw[side][s]; v != 0 {
				h ^= mix(3<<40 | uint64(side)<<24 | uint64(s)<<8 | uint64(v))
			}
		}
	}
	return h
}

// epRight is the en passant square if the side to move has an en passant
// capture the referee would accept (S2.3, S8.3), else noSq: a boat's
// multi-square first move that no enemy boat can take leaves the same
// position as any other move to its square (S9).
func (p *position) epRight() Square {
	if p.ep == noSq {
		return noSq
	}
	x := p.toMove
	t := epTarget(p.ep, x.Other())
	if p.sq[t] != 0 || p.ownMine(t, x) {
		return noSq
	}
	// The boats that could take: diagonally behind the target square.
	fwd := forward(x)
	for _, d := range []rules.Dir{(fwd + 3) % 8, (fwd + 5) % 8} {
		if s := brd.Next(t, d); s != noSq && p.sq[s] == mk(boat, x) {
			m := mv(mvEnPassant, boat, s, t)
			m.Aux = p.ep
			if p.legal(m, false) { // the check status matters to castling only
				return p.ep
			}
		}
	}
	return noSq
}

// mix is splitmix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
