package seachess

import (
	"syscall"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// BenchmarkPerft4 is perft to depth 4 from the start, for
// docs/performance.md: go test -run '^$' -bench Perft4 -benchtime 5x ./rules/seachess/
// It reports nodes per second of wall time and, since the machine it runs
// on may be shared, nodes per second of the process's CPU time.
func BenchmarkPerft4(b *testing.B) {
	s := start(b)
	var n uint64
	begin, cpu := time.Now(), cpuTime(b)
	for b.Loop() {
		n = rules.Perft(s, 4)
	}
	b.ReportMetric(float64(n), "nodes")
	b.ReportMetric(float64(n)*float64(b.N)/time.Since(begin).Seconds(), "nodes/s")
	b.ReportMetric(float64(n)*float64(b.N)/(cpuTime(b)-cpu).Seconds(), "nodes/cpu-s")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPerft checks perft from the start. Depth 1 by hand: 8 boats × 4
// steps, 2 leaps for each submarine (c3 e3, h3 j3), and the cruiser's
// mine: 37; nothing else can move. Depth 2: no White move changes what
// Black may do (nothing reaches past rank 6 nor near Black), so 37 × 37 =
// 1369. Depth 3 comes from refPerft, a separate, plain generator of the
// piece moves that can occur in the first three plies.
func TestPerft(t *testing.T) {
	s := start(t)
	want := []uint64{1, 37, 1369, 52731}
	for d := 1; d < len(want); d++ {
		if got := rules.Perft(s, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
	if got := refPerft(refStart(), rules.White, 3); got != want[3] {
		t.Errorf("the reference counts %d at depth 3", got)
	}
	// The fast path agrees with the generic walk through Moves and Apply.
	for _, moves := range [][]string{nil, {"Cc1-M", "Bd11-d7", "Be2-e6"}, {"Bc2-c6", "Bd11-d7"}} {
		s := play(t, start(t), moves...)
		for d := 1; d <= 2; d++ {
			var generic uint64
			for _, e := range rules.Divide(s, d) {
				generic += e.Nodes
			}
			if fast := s.Perft(d); fast != generic {
				t.Errorf("after %v: perft(%d) fast %d, generic %d", moves, d, fast, generic)
			}
		}
	}
	if rulestest.Long() {
		if got := rules.Perft(s, 4); got != 2029880 {
			t.Errorf("perft(4) = %d", got)
		}
	}
}

// refPiece is a piece of the reference generator: kind letter, side, and
// whether a cruiser still has its mine.
type refPiece struct {
	k      byte
	side   rules.Side
	loaded bool
}

// refPosition is the reference generator's position: the pieces by
// (file, rank); the side to move is passed beside it.
type refPosition map[[2]int]refPiece

// refExists is S1.1 read directly: ranks 3–10 on all twelve files, c–j on
// ranks 1, 2, 11, 12 (zero-based coordinates).
func refExists(f, r int) bool {
	return f >= 0 && f < 12 && r >= 0 && r < 12 && ((r >= 2 && r <= 9) || (f >= 2 && f <= 9))
}

func refStart() refPosition {
	b := refPosition{}
	for i, k := range "CSDAKDST" {
		b[[2]int{2 + i, 0}] = refPiece{byte(k), rules.White, k == 'C'}
		b[[2]int{2 + i, 11}] = refPiece{byte(k), rules.Black, k == 'C'}
		b[[2]int{2 + i, 1}] = refPiece{'B', rules.White, false}
		b[[2]int{2 + i, 10}] = refPiece{'B', rules.Black, false}
	}
	return b
}

// refPerft counts the positions after depth plies, generating the moves
// of S2–S8 that the opening allows: boat steps and captures, slides,
// leaps, the carrier's moves and the cruiser's mine. Submerging needs two
// earlier turns afloat, checks and castling cannot arise so early, so
// they are left out: the count is only valid up to depth 3.
func refPerft(b refPosition, side rules.Side, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for from, p := range b {
		if p.side != side {
			continue
		}
		for _, to := range refTargets(b, from, p) {
			nb := refPosition{}
			for k, v := range b {
				nb[k] = v
			}
			if to == from { // the mine: the cruiser stays, unloaded
				p.loaded = false
				nb[from] = p
			} else {
				delete(nb, from)
				nb[to] = p
			}
			n += refPerft(nb, side.Other(), depth-1)
		}
	}
	return n
}

func refTargets(b refPosition, from [2]int, p refPiece) [][2]int {
	var out [][2]int
	f, r := from[0], from[1]
	free := func(f, r int) bool { _, ok := b[[2]int{f, r}]; return refExists(f, r) && !ok }
	enemy := func(f, r int) bool { q, ok := b[[2]int{f, r}]; return ok && q.side != p.side }
	land := func(f, r int) {
		if refExists(f, r) && (free(f, r) || enemy(f, r)) {
			out = append(out, [2]int{f, r})
		}
	}
	slide := func(dirs [][2]int) {
		for _, d := range dirs {
			for i := 1; ; i++ {
				nf, nr := f+d[0]*i, r+d[1]*i
				if !refExists(nf, nr) {
					break
				}
				land(nf, nr)
				if !free(nf, nr) {
					break
				}
			}
		}
	}
	rook := [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	bishop := [][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	fwd, home := 1, 1
	if p.side == rules.Black {
		fwd, home = -1, 10
	}
	switch p.k {
	case 'B':
		for i := 1; i <= 4 && free(f, r+fwd*i); i++ {
			out = append(out, [2]int{f, r + fwd*i})
			if r != home {
				break
			}
		}
		for _, df := range []int{-1, 1} {
			if enemy(f+df, r+fwd) {
				out = append(out, [2]int{f + df, r + fwd})
			}
		}
	case 'C':
		slide(rook)
		if p.loaded {
			out = append(out, from)
		}
	case 'T':
		slide(rook)
		for _, df := range []int{-1, 1} {
			if enemy(f+df, r+fwd) || free(f+df, r+fwd) && enemy(f+2*df, r+2*fwd) {
				panic("a torpedo in the opening")
			}
		}
	case 'D':
		slide(bishop)
	case 'S':
		for _, o := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			land(f+o[0], r+o[1])
		}
	case 'K':
		for _, d := range append(rook, bishop...) {
			land(f+d[0], r+d[1])
		}
	case 'A':
		for _, d := range append(rook, bishop...) {
			land(f+d[0], r+d[1])
			if free(f+d[0], r+d[1]) {
				land(f+2*d[0], r+2*d[1])
			}
		}
		for _, d := range rook {
			if free(f+d[0], r+d[1]) && free(f+2*d[0], r+2*d[1]) {
				land(f+2*d[0]+d[1], r+2*d[1]+d[0])
				land(f+2*d[0]-d[1], r+2*d[1]-d[0])
			}
		}
		for df := -3; df <= 3; df++ {
			for dr := -3; dr <= 3; dr++ {
				if max(rules.Abs(df), rules.Abs(dr)) == 3 && enemy(f+df, r+dr) {
					panic("an aircraft in the opening")
				}
			}
		}
	}
	return out
}

// BenchmarkSubmittable is the cost of one side's list (pos.submittable) in
// a middle game where the side to move must allow for the opponent's
// mines (the position of reproUnseenMine, White to move).
// go test -run '^$' -bench Submittable ./rules/seachess/
func BenchmarkSubmittable(b *testing.B) {
	s := replay(b, reproUnseenMine)
	var n int
	cpu := cpuTime(b)
	for b.Loop() {
		n = len(s.pos.submittable(s.inCheck))
	}
	b.ReportMetric(float64(n), "moves")
	b.ReportMetric(float64((cpuTime(b)-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
