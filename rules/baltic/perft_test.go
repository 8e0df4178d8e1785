package baltic

import (
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// ref is a second, deliberately plain move counter written from the rule
// text (B2–B5) for these tests only: a map of squares, the move vectors
// spelt out, scoring and the end decided again. It shares nothing with the
// engine but the position it starts from (read from the public view).
type refPiece struct {
	white  bool
	animal byte // 'C', 'S', 'L', 'G'
	h      int
}

// refPosition is the reference generator's position, written apart from
// the engine's position type.
type refPosition struct {
	sc    bool
	sq    map[[2]int]refPiece
	white bool // White to move
	ply   int
	pts   [2]int
}

func refFrom(s *State) refPosition {
	p := refPosition{sc: s.rs == sc2022, sq: map[[2]int]refPiece{}, white: s.ToMove() == rules.White, ply: s.Ply(), pts: s.points}
	v := s.View(rules.ViewReferee)
	for f := range 8 {
		for r := range 8 {
			text := v.Cells[f+8*r]
			if text == "" {
				continue
			}
			pc := refPiece{white: text[0] < 'a', animal: text[0] &^ 0x20, h: 1}
			if len(text) == 2 {
				pc.h = int(text[1] - '0')
			}
			p.sq[[2]int{f, r}] = pc
		}
	}
	return p
}

func (p refPosition) vectors(pc refPiece) [][2]int {
	fwd := 1
	if !pc.white {
		fwd = -1
	}
	switch pc.animal {
	case 'C':
		return [][2]int{{-1, fwd}, {1, fwd}}
	case 'S':
		return [][2]int{{0, fwd}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	case 'L':
		return [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	case 'G':
		return [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	}
	panic("animal " + string(pc.animal))
}

func (p refPosition) over() bool {
	if p.sc {
		return p.ply%2 == 0 && (p.ply >= 60 || p.pts[0] >= 2 || p.pts[1] >= 2)
	}
	if p.pts[0] >= 3 || p.pts[1] >= 3 {
		return true
	}
	var n [2]int
	for _, pc := range p.sq {
		if pc.white {
			n[0]++
		} else {
			n[1]++
		}
	}
	return n[0] <= 1 || n[1] <= 1
}

type refMove struct {
	from, to [2]int
	pc       refPiece
	h, pts   int
}

func (p refPosition) moves() []refMove {
	var out []refMove
	for from, pc := range p.sq {
		if pc.white != p.white {
			continue
		}
		for _, v := range p.vectors(pc) {
			to := [2]int{from[0] + v[0], from[1] + v[1]}
			if to[0] < 0 || to[0] > 7 || to[1] < 0 || to[1] > 7 {
				continue
			}
			target, occupied := p.sq[to]
			if occupied && target.white == pc.white {
				continue
			}
			h := pc.h
			if occupied {
				h += target.h
			}
			if !p.sc && h > 3 {
				continue
			}
			farRank := 7
			if !pc.white {
				farRank = 0
			}
			far := to[1] == farRank
			pts := 0
			if p.sc {
				if h >= 3 {
					pts++
				}
				if far && pc.animal != 'L' {
					pts++
				}
			} else if h == 3 || far {
				pts = 1
			}
			out = append(out, refMove{from, to, pc, h, pts})
		}
	}
	return out
}

func (p refPosition) play(m refMove) refPosition {
	next := refPosition{sc: p.sc, sq: make(map[[2]int]refPiece, len(p.sq)), white: !p.white, ply: p.ply + 1, pts: p.pts}
	for k, x := range p.sq {
		next.sq[k] = x
	}
	delete(next.sq, m.from)
	if m.pts > 0 {
		delete(next.sq, m.to)
		if m.pc.white {
			next.pts[0] += m.pts
		} else {
			next.pts[1] += m.pts
		}
	} else {
		next.sq[m.to] = refPiece{white: m.pc.white, animal: m.pc.animal, h: m.h}
	}
	return next
}

func (p refPosition) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.over() {
		return 0
	}
	moves := p.moves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += p.play(m).perft(depth - 1)
	}
	return n
}

// TestPerftStart asserts the start's perft. Depths 1 and 2 of holdorf were
// counted by hand from B2 and B4.5: a1 gull 1 (a2), b1 seal 2 (a3 c3; d2 is
// own), c1 cockle 1 (b2), d1 starfish 2 (c2 e2), e1 starfish 2 (e2 f2), f1
// cockle 2 (e2 g2), g1 seal 3 (e2 f3 h3), h1 gull 1, d2 starfish 3 (c3 d3
// e3) = 17; Black's 17 replies cannot touch White's pieces yet: 289.
// Deeper values agree with the reference counter above.
func TestPerftStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		rs   string
		seed uint64
		want []uint64
	}{
		{RulesHoldorf, 0, []uint64{17, 289, 5542, 106276}},
		{RulesSC2022, 1, []uint64{17, 289, 5083, 89401}},
		{RulesSC2022, 42, []uint64{18, 324, 5994, 110889}},
	}
	maxDepth := 3
	if !testing.Short() {
		maxDepth = 4
	}
	for _, c := range cases {
		s, err := Variant.New(rules.Options{Ruleset: c.rs, Seed: c.seed})
		if err != nil {
			t.Fatal(err)
		}
		ref := refFrom(s.(*State))
		for d := 1; d <= maxDepth; d++ {
			got := rules.Perft(s, d)
			if want := ref.perft(d); got != want {
				t.Errorf("%s seed %d depth %d: perft %d, reference %d", c.rs, c.seed, d, got, want)
			}
			if got != c.want[d-1] {
				t.Errorf("%s seed %d depth %d: perft %d, want %d", c.rs, c.seed, d, got, c.want[d-1])
			}
			if d <= 3 {
				if generic := rules.ApplyPerft(s, d); generic != got {
					t.Errorf("%s depth %d: fast perft %d, Moves/Apply %d", c.rs, d, got, generic)
				}
			}
		}
	}
}

// TestPerftMidgame compares the engine with the reference from positions
// met in random games, where stacks, points and ends abound.
func TestPerftMidgame(t *testing.T) {
	t.Parallel()
	for _, rs := range bothRulesets {
		r := rand.New(rand.NewPCG(7, 7))
		checked := 0
		for g := range rulestest.Size(3, 24, 240) {
			s, _ := Variant.New(rules.Options{Ruleset: rs, Seed: uint64(g)})
			for ply := 0; ply < 200 && !s.Outcome().Over(); ply++ {
				moves := s.Moves()
				s, _, _ = s.Apply(moves[r.IntN(len(moves))])
				if ply%13 == 3 {
					st := s.(*State)
					if got, want := rules.Perft(s, 3), refFrom(st).perft(3); got != want {
						t.Fatalf("%s %q: perft 3 = %d, reference %d", rs, boardText(&st.cells), got, want)
					}
					if got, want := rules.Perft(s, 2), rules.ApplyPerft(s, 2); got != want {
						t.Fatalf("%s %q: perft 2 = %d, Moves/Apply %d", rs, boardText(&st.cells), got, want)
					}
					checked++
				}
			}
		}
		t.Logf("%s: %d positions compared", rs, checked)
	}
}

// BenchmarkPerft4 is perft 4 from the start, holdorf and sc2022 (seed 1).
func BenchmarkPerft4(b *testing.B) {
	for _, c := range []struct {
		rs   string
		seed uint64
	}{{RulesHoldorf, 0}, {RulesSC2022, 1}} {
		b.Run(c.rs, func(b *testing.B) {
			s, _ := Variant.New(rules.Options{Ruleset: c.rs, Seed: c.seed})
			var n uint64
			for b.Loop() {
				n = rules.Perft(s, 4)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(n), "nodes")
		})
	}
}
