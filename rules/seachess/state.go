package seachess

import (
	"slices"
	"sync"

	"github.com/bottlepost/bottlepost/rules"
)

// State is the referee's full state of a Seachess game (rules.State). It is
// immutable: Apply returns a new one.
type State struct {
	p       pos
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
	// pos is the position notation, written once for MarshalBinary.
	posOnce sync.Once
	pos     string
}

var _ rules.State = (*State)(nil)

// newState wraps a position: it works out the check status, the repetition
// history and the outcome.
func newState(p pos, ruleset string, prev []uint64) *State {
	s := &State{p: p, ruleset: ruleset, cache: &moveCache{}}
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
func (s *State) ToMove() rules.Side { return s.p.toMove }

// Ply counts the moves played.
func (s *State) Ply() int { return s.p.ply }

// Outcome says whether the game is over.
func (s *State) Outcome() rules.Outcome { return s.outcome }

// known returns the moves the side to move may submit, computed once from
// what that side knows (pos.project) and judged on that knowledge.
func (s *State) known() *moveCache {
	c := s.cache
	c.once.Do(func() {
		c.moves = s.p.knownMoves(s.inCheck)
		c.texts = make([]string, len(c.moves))
		for i, m := range c.moves {
			c.texts[i] = s.Format(m)
		}
	})
	return c
}

// knownMoves lists the moves of the side to move as it knows the position:
// the opponent's mines are treated as absent and its submerged submarines as
// unknown; only the public announcement of a check (announced) adds to what
// the projection shows.
func (p *pos) knownMoves(announced bool) []rules.Move {
	w, inCheck := p.knowledge(announced)
	moves := w.pseudo(make([]rules.Move, 0, 96), inCheck)
	out := moves[:0]
	for _, m := range moves {
		if w.legal(m, inCheck) {
			out = append(out, m)
		}
	}
	return slices.Clip(out)
}

// knowledge is the position as the side to move knows it (pos.project)
// and whether it knows itself in check: attacked there, or told so
// (announced).
func (p *pos) knowledge(announced bool) (pos, bool) {
	x := p.toMove
	w := p.project(x)
	return w, announced || (w.king[x] != noSq && w.attacked(w.king[x], x.Other()))
}

// Moves lists what the side to move may submit (S8.3, S3.4): the referee
// may still refuse one of them.
func (s *State) Moves() []rules.Move {
	if s.outcome.Over() {
		return nil
	}
	return slices.Clone(s.known().moves)
}

// anyAccepted reports whether the referee accepts at least one move the
// side to move may submit.
func (s *State) anyAccepted() bool {
	// Stop at the first move the side may submit and the referee accepts:
	// most often the first one tried.
	w, inCheck := s.p.knowledge(s.inCheck)
	for _, m := range w.pseudo(make([]rules.Move, 0, 96), inCheck) {
		if w.legal(m, inCheck) && s.p.legal(m, s.inCheck) {
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
		if s.p.king[side] == noSq {
			return rules.Outcome{Status: rules.Win, Winner: side.Other(),
				Reason: "commando ship lost to a mine", Ruling: "S3.5"}
		}
	}
	if !s.anyAccepted() {
		if s.inCheck {
			return rules.Outcome{Status: rules.Win, Winner: s.p.toMove.Other(), Reason: "checkmate", Ruling: "S9"}
		}
		return rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "S9"}
	}
	if s.repetitions() >= 4 {
		return rules.Outcome{Status: rules.Draw, Reason: "fourth repetition of the position", Ruling: "S9"}
	}
	if s.p.clock >= drawClock {
		return rules.Outcome{Status: rules.Draw, Reason: "75 moves each without capture or boat move", Ruling: "S9"}
	}
	return rules.Outcome{}
}

// Apply plays m: it must be one of Moves, and the referee, judging with
// full information, may refuse it (S8.3).
func (s *State) Apply(m rules.Move) (rules.State, *rules.Report, error) {
	if s.outcome.Over() {
		return nil, nil, &rules.MoveError{Input: s.Format(m), Kind: rules.GameOver,
			Reason: "the game is over: " + s.outcome.Describe(Variant.Sides())}
	}
	if !slices.Contains(s.known().moves, m) {
		return nil, nil, &rules.MoveError{Input: s.Format(m), Kind: rules.Illegal,
			Reason: "that is not a legal move here"}
	}
	fx := &effects{reloadM: noSq, reloadT: noSq}
	q, ok := s.p.judge(m, s.inCheck, fx)
	if !ok {
		return nil, nil, refusal(s.Format(m))
	}
	next := newState(q, s.ruleset, s.hist)
	return next, s.report(m, next, fx), nil
}

// refusal is the referee's answer to a move that leaves the commando ship
// in check: it says nothing about why (S8.3).
func refusal(input string) *rules.MoveError {
	return &rules.MoveError{Input: input, Kind: rules.Refused, Ruling: "S8.3",
		Reason: "the referee refuses it: your commando ship would be (or stay) in check; please send another move"}
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
	return perft(&s.p, s.hist, s.inCheck, depth)
}

func perft(p *pos, hist []uint64, inCheck bool, depth int) uint64 {
	x := p.toMove
	var moves []rules.Move
	if p.hiddenFrom(x) {
		moves = p.knownMoves(inCheck)
	} else {
		// Nothing is hidden from the mover: its judgement is the referee's.
		moves = p.pseudo(make([]rules.Move, 0, 96), inCheck)
	}
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
// position (hidden state, loads, directions, castling and en passant rights,
// the aircraft, each submarine's count).
func (p *pos) hash() uint64 {
	h := mix(uint64(p.toMove)<<32 | uint64(p.castle)<<16 | uint64(uint16(p.ep)))
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

// mix is splitmix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
