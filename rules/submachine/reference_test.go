package submachine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// This file holds a deliberately plain second implementation of the rules,
// used only to check the engine. It shares nothing with it but the board's
// Next links and square names: positions are arrays of letters, sliders
// walk Next one step at a time, pawns and knights use plain coordinates,
// and a king is in check when an enemy move could take it (so teleport
// attacks come for free). No tables, no make/unmake, no reverse paths, no
// Zobrist keys.

// refPosition is the reference generator's position, written apart from
// the engine's position type.
type refPosition struct {
	cell     [11 * 12]byte // 0 or a piece letter, upper case White
	white    bool          // White to move
	ep       rules.Square  // square passed by a double step, or NoSquare
	halfmove int
}

type refMove struct {
	from, to, victim rules.Square // victim: the square of the piece taken
	promo            byte
	double           bool
}

func refStart(t testing.TB, s *State) refPosition {
	t.Helper()
	var p refPosition
	for _, sq := range board.Squares() {
		if c := s.pos.cells[sq]; c != 0 {
			p.cell[sq] = pieceLetter(c)
		}
	}
	p.white = s.pos.side == rules.White
	p.ep = s.pos.ep
	p.halfmove = s.pos.halfmove
	return p
}

func isWhite(c byte) bool { return c >= 'A' && c <= 'Z' }
func upper(c byte) byte {
	if c >= 'a' {
		return c - 'a' + 'A'
	}
	return c
}

// refPseudo lists the moves of side white, ignoring its king's safety.
func refPseudo(p *refPosition, white bool) []refMove {
	var out []refMove
	first := 0 // the first move of the current piece
	add := func(m refMove) {
		for _, o := range out[first:] {
			if o.to == m.to && o.promo == m.promo {
				return // the same square reached another way
			}
		}
		out = append(out, m)
	}
	own := func(sq rules.Square) bool { return p.cell[sq] != 0 && isWhite(p.cell[sq]) == white }
	for _, sq := range board.Squares() {
		c := p.cell[sq]
		if c == 0 || isWhite(c) != white {
			continue
		}
		first = len(out)
		f, r := board.Coords(sq)
		piece := upper(c)
		to := func(t rules.Square) {
			if t != rules.NoSquare && !own(t) {
				add(refMove{from: sq, to: t, victim: t})
			}
		}
		slide := func(dirs ...rules.Dir) {
			for _, d := range dirs {
				steps := 0
				for t := board.Next(sq, d); t != rules.NoSquare && t != sq; t = board.Next(t, d) {
					if steps++; steps > 100 {
						panic("a line that never ends from " + board.Name(sq))
					}
					if own(t) {
						break
					}
					to(t)
					if p.cell[t] != 0 {
						break
					}
				}
			}
		}
		leap := func() {
			for _, o := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
				to(board.At(f+o[0], r+o[1]))
			}
		}
		switch piece {
		case 'P':
			refPawnMoves(p, sq, white, own, add)
			continue
		case 'N':
			leap()
		case 'B':
			slide(rules.Diagonals...)
		case 'R':
			slide(rules.Orthogonals...)
		case 'Q':
			slide(rules.AllDirs...)
		case 'C':
			leap()
			slide(rules.Diagonals...)
		case 'M':
			leap()
			slide(rules.Orthogonals...)
		case 'K':
			for _, d := range rules.AllDirs {
				to(board.Next(sq, d))
			}
		}
		if board.Has(sq, rules.MarkTeleport) {
			for _, t := range board.Marked(rules.MarkTeleport) {
				if t != sq {
					to(t)
				}
			}
		}
	}
	return out
}

// refPawnMoves gives add the pawn's moves from sq: steps to the next
// existing square ahead, the double step, captures, en passant and
// promotions.
func refPawnMoves(p *refPosition, sq rules.Square, white bool, own func(rules.Square) bool, add func(refMove)) {
	f, r := board.Coords(sq)
	dir, start, promo := 1, 1, func(r int) bool { return r >= 9 }
	if !white {
		dir, start, promo = -1, 10, func(r int) bool { return r <= 2 }
	}
	ahead := func(from rules.Square) rules.Square {
		ff, rr := board.Coords(from)
		for rr += dir; rr >= 0 && rr < 12; rr += dir {
			if t := board.At(ff, rr); t != rules.NoSquare {
				return t
			}
		}
		return rules.NoSquare
	}
	pawnTo := func(m refMove) {
		if promo(board.Rank(m.to)) {
			for _, l := range []byte("QRBNCM") {
				m.promo = l
				add(m)
			}
			return
		}
		add(m)
	}
	if t := ahead(sq); t != rules.NoSquare && p.cell[t] == 0 {
		pawnTo(refMove{from: sq, to: t, victim: rules.NoSquare})
		if t2 := ahead(t); r == start && t2 != rules.NoSquare && p.cell[t2] == 0 {
			pawnTo(refMove{from: sq, to: t2, victim: rules.NoSquare, double: true})
		}
	}
	for _, df := range []int{-1, 1} {
		t := board.At(f+df, r+dir)
		switch {
		case t == rules.NoSquare:
		case p.cell[t] != 0 && !own(t):
			pawnTo(refMove{from: sq, to: t, victim: t})
		case p.cell[t] == 0 && t == p.ep && white == p.white:
			// the victim stands one step beyond ep, seen from the capturer
			tf, tr := board.Coords(t)
			v := rules.NoSquare
			for rr := tr - dir; rr >= 0 && rr < 12; rr -= dir {
				if v = board.At(tf, rr); v != rules.NoSquare {
					break
				}
			}
			pawnTo(refMove{from: sq, to: t, victim: v})
		}
	}
}

func refApply(p refPosition, m refMove) refPosition {
	q := p
	c := q.cell[m.from]
	capture := m.victim != rules.NoSquare && q.cell[m.victim] != 0
	if m.victim != rules.NoSquare {
		q.cell[m.victim] = 0
	}
	q.cell[m.from] = 0
	if m.promo != 0 {
		c = m.promo
		if !p.white {
			c += 'a' - 'A'
		}
	}
	q.cell[m.to] = c
	q.ep = rules.NoSquare
	if m.double {
		// the square between: the first step
		f, r := board.Coords(m.from)
		dir := 1
		if !p.white {
			dir = -1
		}
		for rr := r + dir; ; rr += dir {
			if t := board.At(f, rr); t != rules.NoSquare {
				q.ep = t
				break
			}
		}
	}
	if upper(c) == 'P' || m.promo != 0 || capture {
		q.halfmove = 0
	} else {
		q.halfmove++
	}
	q.white = !p.white
	return q
}

func refKing(p *refPosition, white bool) rules.Square {
	k := byte('K')
	if !white {
		k = 'k'
	}
	for _, sq := range board.Squares() {
		if p.cell[sq] == k {
			return sq
		}
	}
	return rules.NoSquare
}

func refAttacked(p *refPosition, sq rules.Square, byWhite bool) bool {
	for _, m := range refPseudo(p, byWhite) {
		if m.to == sq && m.victim == sq {
			return true
		}
	}
	return false
}

func refLegal(p refPosition) []refMove {
	var out []refMove
	for _, m := range refPseudo(&p, p.white) {
		q := refApply(p, m)
		if !refAttacked(&q, refKing(&q, p.white), !p.white) {
			out = append(out, m)
		}
	}
	return out
}

func refText(p *refPosition, m refMove) string {
	var b strings.Builder
	if c := upper(p.cell[m.from]); c != 'P' {
		b.WriteByte(c)
	}
	b.WriteString(board.Name(m.from))
	if m.victim != rules.NoSquare && p.cell[m.victim] != 0 {
		b.WriteByte('x')
	} else {
		b.WriteByte('-')
	}
	b.WriteString(board.Name(m.to))
	if m.promo != 0 {
		b.WriteByte('=')
		b.WriteByte(m.promo)
	}
	return b.String()
}

func refTexts(p refPosition, legal []refMove) []string {
	out := make([]string, len(legal))
	for i, m := range legal {
		out[i] = refText(&p, m)
	}
	sort.Strings(out)
	return out
}

// refKey is the repetition key: the pieces, the side and the en passant
// square while an en passant capture is legal.
func refKey(p refPosition, legal []refMove) string {
	ep := rules.NoSquare
	for _, m := range legal {
		if m.to == p.ep && upper(p.cell[m.from]) == 'P' && m.victim != m.to {
			ep = p.ep
		}
	}
	return fmt.Sprintf("%s %v %d", p.cell[:], p.white, ep)
}

func refBare(p *refPosition) bool {
	for _, sq := range board.Squares() {
		if c := p.cell[sq]; c != 0 && upper(c) != 'K' {
			return false
		}
	}
	return true
}

// refWalk compares the engine with the reference at every node of the tree
// to depth plies and returns the reference's leaf count.
func refWalk(t *testing.T, s rules.State, p refPosition, depth int, line []string) uint64 {
	legal := refLegal(p)
	want := refTexts(p, legal)
	got := engineTexts(s)
	if !slices.Equal(got, want) {
		t.Fatalf("after %v: engine and reference differ\nengine only:    %v\nreference only: %v", line, minus(got, want), minus(want, got))
	}
	if depth == 1 {
		return uint64(len(legal))
	}
	var n uint64
	for _, m := range legal {
		text := refText(&p, m)
		em, err := s.Parse(text)
		if err != nil {
			t.Fatalf("after %v: %s: %v", line, text, err)
		}
		next, _, err := s.Apply(em)
		if err != nil {
			t.Fatalf("after %v: %s: %v", line, text, err)
		}
		n += refWalk(t, next, refApply(p, m), depth-1, append(line, text))
	}
	return n
}

func engineTexts(s rules.State) []string {
	var out []string
	for _, m := range s.Moves() {
		out = append(out, s.Format(m))
	}
	sort.Strings(out)
	return out
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestPerftAgainstReference checks perft 1–3 from the start (4 with
// BOTTLEPOST_LONG=1) move list by move list against the reference, and
// asserts the counts. Depths 1 and 2 are also counted by hand: White has
// 37 moves (10 pawns × 2, Nb1 a3 c3, Nj1 i3 k3, Cd1 c3 e3, Mh1 g3 i3 i4
// i5, Ra1 b5 b4, Rk1 j5 j4, Qe1 d5 d4, Kg1 h5; bishops none), Black the
// mirror 37, and no first move of either side touches the other's, so
// 37² = 1369.
func TestPerftAgainstReference(t *testing.T) {
	want := []uint64{1, 37, 1369, 54642, 2174145}
	depth := rulestest.Size(3, 3, 4)
	s, _ := newGame(rules.Options{})
	if got := refWalk(t, s, refStart(t, s), depth, nil); got != want[depth] {
		t.Errorf("reference perft %d = %d, want %d", depth, got, want[depth])
	}
	for d := 0; d <= depth; d++ {
		if got := rules.Perft(s, d); got != want[d] {
			t.Errorf("engine perft %d = %d, want %d", d, got, want[d])
		}
	}
}

// TestRandomGamesAgainstReference plays random games and compares every
// position's legal moves and the game's end with the reference; it also
// makes sure the games went through the rare rules.
func TestRandomGamesAgainstReference(t *testing.T) {
	games := rulestest.Size(12, 60, 600)
	seen := map[string]int{}
	for g := range games {
		r := rand.New(rand.NewPCG(7, uint64(g)))
		s, _ := newGame(rules.Options{})
		if g%3 == 2 {
			// Pawns facing each other's double steps, for en passant and
			// en passant promotions (b4xa3, b9xa10).
			s = setup(t, "w", "Kg1 Ra1 Nj1 Pa2 Pc2 Pe2 Pg2 Pi2 Pk2 Pb9 Pd9 Ph9 Pj9 "+
				"kg12 ra12 nj12 pa11 pc11 pe11 pg11 pi11 pk11 pb4 pd4 ph4 pj4")
		}
		var st rules.State = s
		p := refStart(t, s)
		keys := map[string]int{}
		var line []string
		for ply := 0; ; ply++ {
			legal := refLegal(p)
			key := refKey(p, legal)
			if p.halfmove == 0 {
				keys = map[string]int{}
			}
			keys[key]++
			var reason string
			switch {
			case len(legal) == 0 && refAttacked(&p, refKing(&p, p.white), !p.white):
				reason = "checkmate"
			case len(legal) == 0:
				reason = "stalemate"
			case keys[key] >= 3:
				reason = "threefold repetition"
			case p.halfmove >= 100:
				reason = "fifty-move rule"
			case refBare(&p):
				reason = "insufficient material: bare kings"
			}
			if got := st.Outcome().Reason; got != reason {
				t.Fatalf("game %d after %v: engine outcome %q, reference %q", g, line, got, reason)
			}
			if reason != "" {
				seen[reason]++
				break
			}
			if got, want := engineTexts(st), refTexts(p, legal); !slices.Equal(got, want) {
				t.Fatalf("game %d after %v: engine and reference differ\nengine only:    %v\nreference only: %v",
					g, line, minus(got, want), minus(want, got))
			}
			m := legal[r.IntN(len(legal))]
			// Favour the rare: pawn moves in every other game, double steps
			// often, en passant whenever it is there.
			if g%2 == 1 && r.IntN(2) == 0 {
				var pawnMoves []refMove
				for _, o := range legal {
					if upper(p.cell[o.from]) == 'P' {
						pawnMoves = append(pawnMoves, o)
					}
				}
				if len(pawnMoves) > 0 {
					m = pawnMoves[r.IntN(len(pawnMoves))]
				}
			}
			for _, o := range legal {
				if (o.victim != o.to && o.victim != rules.NoSquare) || (o.double && r.IntN(4) == 0) {
					m = o
					break
				}
			}
			text := refText(&p, m)
			switch {
			case m.promo != 0 && m.victim != m.to && m.victim != rules.NoSquare:
				seen["en passant promotion"]++
			case m.victim != m.to && m.victim != rules.NoSquare:
				seen["en passant"]++
			case m.promo != 0:
				seen["promotion"]++
			}
			if board.Has(m.from, rules.MarkTeleport) && board.Has(m.to, rules.MarkTeleport) && upper(p.cell[m.from]) != 'P' {
				seen["between teleports"]++
			}
			em, err := st.Parse(text)
			if err != nil {
				t.Fatalf("game %d after %v: %s: %v", g, line, text, err)
			}
			next, _, err := st.Apply(em)
			if err != nil {
				t.Fatalf("game %d after %v: %s: %v", g, line, text, err)
			}
			st, p = next, refApply(p, m)
			line = append(line, text)
			if st.(*State).InCheck() {
				seen["check"]++
			}
		}
	}
	t.Logf("%d games: %v", games, seen)
	if testing.Short() {
		return // the few games of -short need not meet every rare rule
	}
	for _, k := range []string{"checkmate", "en passant", "en passant promotion", "promotion", "between teleports", "check"} {
		if seen[k] == 0 {
			t.Errorf("no %s in %d random games: the comparison missed a rule", k, games)
		}
	}
}

// TestPerftMatchesApply checks the make/unmake perft against Apply where
// games end inside the tree: the fifty-move rule, a repetition coming round
// a third time, bare kings, and a middle game.
func TestPerftMatchesApply(t *testing.T) {
	start, _ := newGame(rules.Options{})
	fifty, err := newGame(rules.Options{Position: "6k4/11/11/11/11/11/11/11/11/11/R3P6/6K4 w - 98 90"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		s     rules.State
		depth int
	}{
		{"start", start, 3},
		{"fifty moves", fifty, 3},
		{"repetition", play(t, start, "Nb1-a3", "Nb12-a10", "Na3-b1", "Na10-b12", "Nb1-a3", "Nb12-a10"), 3},
		{"bare kings near", setup(t, "w", "Kg1 Ni3 kj4 nh1"), 3},
		{"middle game", play(t, start, sampleGame[:19]...), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := rules.Perft(tt.s, tt.depth), rules.ApplyPerft(tt.s, tt.depth); got != want {
				t.Errorf("perft %d = %d, through Apply %d", tt.depth, got, want)
			}
		})
	}
	// The trees do hold ended games: two plies reach them.
	if o := play(t, fifty, "Ra2-a1", "Kg12-g11").Outcome(); o.Reason != "fifty-move rule" {
		t.Errorf("fifty-move tree: %+v", o)
	}
	if o := play(t, tests[2].s, "Na3-b1", "Na10-b12").Outcome(); o.Reason != "threefold repetition" {
		t.Errorf("repetition tree: %+v", o)
	}
	if o := play(t, tests[3].s, "Kg1xh1", "Kj4xi3").Outcome(); o.Reason != "insufficient material: bare kings" {
		t.Errorf("bare-kings tree: %+v", o)
	}
}
