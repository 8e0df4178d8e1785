package seachess

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// TestNonInterference checks S10 on random games: two histories that differ
// only in one side's hidden moves give the other side byte-identical views,
// records, notices and move lists, for as long as nothing public (a record
// line, a notice, the public board, a refusal) has told them apart.
func TestNonInterference(t *testing.T) {
	t.Parallel()
	games := rulestest.Size(40, 400, 4000)
	var branches, compared, revealed, refusals int
	for g := range games {
		r := rand.New(rand.NewPCG(7, uint64(g)))
		b, c, rev, ref := nonInterferenceGame(t, r, g)
		branches += b
		compared += c
		revealed += rev
		refusals += ref
	}
	t.Logf("%d games: %d branch points, %d plies compared, %d ended by a public difference, %d by a refusal",
		games, branches, compared, revealed, refusals)
	if branches < games/2 || compared < 3*branches {
		t.Errorf("too little was compared: %d branch points, %d plies", branches, compared)
	}
}

// randomPly picks a random move the referee accepts, favouring hidden moves
// so that mines and submerged submarines abound.
func randomPly(r *rand.Rand, s *State) (rules.Move, *State, *rules.Report) {
	moves := s.Moves()
	r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	if r.IntN(3) == 0 {
		slices.SortStableFunc(moves, func(a, b rules.Move) int {
			return boolInt(!hidden(a.Kind)) - boolInt(!hidden(b.Kind))
		})
	}
	for _, m := range moves {
		if n, rep, err := s.Apply(m); err == nil {
			return m, n.(*State), rep
		}
	}
	panic("no move accepted in a game that goes on")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// public is everything about a move that both sides learn.
func public(rep *rules.Report, s *State) string {
	return rep.Record[rules.ViewPublic] + "\n" + strings.Join(rep.English(rules.ViewPublic), "\n") + "\n" +
		strings.Join(rep.NoticesIn(rules.ViewPublic, lang.German), "\n") + "\n" +
		boards(s.View(rules.ViewPublic))
}

// boards are a view's renderings in every format: the diagram, the piece
// list and every square's accessible name (the HTML board's words).
func boards(v *rules.View) string {
	out := v.ASCII() + v.List(nil)
	for _, sq := range brd.Squares() {
		out += v.SquareName(sq, nil) + "\n"
	}
	return out
}

// private is everything viewer v learns, public or not.
func private(rep *rules.Report, s *State, v rules.Viewer) string {
	out := boards(s.View(v))
	if rep != nil {
		out += rep.Record[v] + "\n" + strings.Join(rep.English(v), "\n") + "\n" +
			strings.Join(rep.NoticesIn(v, lang.German), "\n") + "\n"
	}
	if side, _ := v.Side(); s.ToMove() == side {
		out += strings.Join(texts(s), " ")
	}
	return out
}

func nonInterferenceGame(t *testing.T, r *rand.Rand, g int) (branches, compared, revealed, refusals int) {
	s := start(t)
	var played []string
	prefix := 10 + r.IntN(150)
	for ply := 0; ; ply++ {
		if s.Outcome().Over() {
			return
		}
		x := s.ToMove()
		if ply >= prefix {
			// Two hidden moves of x that look the same to the public; mines
			// first, since they stay hidden longest.
			type option struct {
				m   rules.Move
				n   *State
				rep *rules.Report
			}
			groups := map[string][]option{}
			var keys []string
			for _, m := range s.Moves() {
				if !hidden(m.Kind) {
					continue
				}
				n, rep, err := s.Apply(m)
				if err != nil {
					continue
				}
				k := public(rep, n.(*State))
				if _, ok := groups[k]; !ok {
					keys = append(keys, k)
				}
				groups[k] = append(groups[k], option{m, n.(*State), rep})
			}
			best, score := []option(nil), -1
			for _, k := range keys {
				opts := groups[k]
				if len(opts) < 2 {
					continue
				}
				r.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
				slices.SortStableFunc(opts, func(a, b option) int {
					return boolInt(a.m.Kind != mvMine) - boolInt(b.m.Kind != mvMine)
				})
				sc := boolInt(opts[0].m.Kind == mvMine) + boolInt(opts[1].m.Kind == mvMine) + r.IntN(2)
				if sc > score {
					best, score = opts, sc
				}
			}
			if best != nil {
				a, b := best[0], best[1]
				where := fmt.Sprintf("game %d after %s, then %s | %s", g, strings.Join(played, " "), s.Format(a.m), s.Format(b.m))
				c, rev, ref := compareHistories(t, r, a.n, b.n, a.rep, b.rep, x.Other(), where)
				return 1, c, rev, ref
			}
		}
		m, n, _ := randomPly(r, s)
		played = append(played, s.Format(m))
		s = n
		if ply > 400 {
			return
		}
	}
}

// compareHistories continues two histories with the same public moves and
// checks that viewer y cannot tell them apart.
func compareHistories(t *testing.T, r *rand.Rand, a, b *State, repA, repB *rules.Report, y rules.Side, where string) (compared, revealed, refusals int) {
	v := rules.ViewerOf(y)
	var trail []string
	for ply := 0; ply < 80; ply++ {
		if pa, pb := private(repA, a, v), private(repB, b, v); pa != pb {
			t.Fatalf("%s %s: %s can tell the histories apart:\n--- A\n%s\n--- B\n%s", where, strings.Join(trail, " "), sideNames[y], pa, pb)
		}
		if a.Outcome() != b.Outcome() {
			t.Fatalf("%s %s: outcomes differ", where, strings.Join(trail, " "))
		}
		compared++
		if a.Outcome().Over() {
			return
		}
		if a.ToMove() == y {
			checkRefusals(t, r, a, b, where+" "+strings.Join(trail, " "))
		}
		m, na, ra := randomPly(r, a)
		text := a.Format(m)
		var nb *State
		var rb *rules.Report
		if a.ToMove() == y {
			// y plays the same move in both: it has the same list.
			n, rep, err := b.Apply(m)
			if err != nil {
				refusals++ // S8.3: the referee's refusal tells y something
				return
			}
			nb, rb = n.(*State), rep
		} else {
			// The other side plays the same move if it can; otherwise another
			// hidden move for a hidden one, one that looks the same.
			nb, rb = sameForPublic(b, m, ra, na)
			if nb == nil {
				return
			}
		}
		trail = append(trail, text)
		if public(ra, na) != public(rb, nb) {
			if os.Getenv("NI_DEBUG") != "" {
				t.Logf("%s %s: public difference:\n--- A\n%s\n--- B\n%s", where, strings.Join(trail, " "), public(ra, na), public(rb, nb))
			}
			revealed++
			return
		}
		a, b, repA, repB = na, nb, ra, rb
	}
	return
}

// checkRefusals sends a few of y's moves to both histories (y has the same
// list in both): whatever the referee answers, a refusal is S8.3's sentence
// and nothing more, and where both refuse, the answers are byte-identical.
func checkRefusals(t *testing.T, r *rand.Rand, a, b *State, where string) {
	moves := a.Moves()
	for range min(8, len(moves)) {
		m := moves[r.IntN(len(moves))]
		text := a.Format(m)
		_, _, errA := a.Apply(m)
		_, _, errB := b.Apply(m)
		for _, err := range []error{errA, errB} {
			if err != nil && err.Error() != refusal(text).Error() {
				t.Fatalf("%s: %s answered %q, want S8.3's refusal alone", where, text, err)
			}
		}
		if errA != nil && errB != nil && errA.Error() != errB.Error() {
			t.Fatalf("%s: %s refused in different words: %q / %q", where, text, errA, errB)
		}
	}
}

// sameForPublic finds in s a move that the public cannot tell from m,
// played elsewhere with report ra to state na.
func sameForPublic(s *State, m rules.Move, ra *rules.Report, na *State) (*State, *rules.Report) {
	want := public(ra, na)
	try := func(m rules.Move) (*State, *rules.Report) {
		n, rep, err := s.Apply(m)
		if err != nil || public(rep, n.(*State)) != want {
			return nil, nil
		}
		return n.(*State), rep
	}
	moves := s.Moves()
	if slices.Contains(moves, m) {
		if n, rep := try(m); n != nil {
			return n, rep
		}
	}
	if !hidden(m.Kind) {
		return nil, nil
	}
	for _, o := range moves {
		if hidden(o.Kind) {
			if n, rep := try(o); n != nil {
				return n, rep
			}
		}
	}
	return nil, nil
}

// TestNonInterferenceHiddenState is the same check from positions that
// differ in everything one side keeps hidden: its mines moved to other
// squares, its cruisers' loads, its submerged submarines moved (S10.3).
// Such differences last, so the histories run on for long.
func TestNonInterferenceHiddenState(t *testing.T) {
	t.Parallel()
	games := rulestest.Size(30, 300, 3000)
	var pairs, compared, revealed, refusals int
	for g := range games {
		r := rand.New(rand.NewPCG(11, uint64(g)))
		s := start(t)
		var played []string
		stop := 20 + r.IntN(200)
		for ply := 0; ply < stop && !s.Outcome().Over(); ply++ {
			m, n, _ := randomPly(r, s)
			played = append(played, s.Format(m))
			s = n
		}
		if s.Outcome().Over() {
			continue
		}
		x := rules.Side(r.IntN(2))
		for try := 0; try < 5; try++ {
			a, b, ok := hideElsewhere(r, s, x)
			if !ok {
				continue
			}
			pairs++
			where := fmt.Sprintf("game %d after %s, %v's hidden state changed:\n%s\n%s", g, strings.Join(played, " "),
				x, a.pos.formatPosition(), b.pos.formatPosition())
			c, rev, ref := compareHistories(t, r, a, b, nil, nil, x.Other(), where)
			compared += c
			revealed += rev
			refusals += ref
			break
		}
	}
	t.Logf("%d games: %d pairs, %d plies compared, %d ended by a public difference, %d by a refusal",
		games, pairs, compared, revealed, refusals)
	if pairs < games/2 || compared < 10*pairs {
		t.Errorf("too little was compared: %d pairs, %d plies", pairs, compared)
	}
}

// hideElsewhere returns s afresh and a twin whose side x has moved its
// hidden things, when the twin is a valid position the public cannot tell
// from s.
func hideElsewhere(r *rand.Rand, s *State, x rules.Side) (*State, *State, bool) {
	q := s.pos
	y := x.Other()
	changed := false
	empty := func(sq Square) bool {
		return q.sq[sq] == 0 && q.mine[sq] == 0 && q.uw[0][sq] == 0 && q.uw[1][sq] == 0
	}
	randomEmpty := func() Square {
		sqs := brd.Squares()
		for range 50 {
			if sq := sqs[r.IntN(len(sqs))]; empty(sq) {
				return sq
			}
		}
		return noSq
	}
	for _, sq := range brd.Squares() {
		switch {
		case q.mine[sq] == mineOf(x) && q.sq[sq] == 0 && r.IntN(2) == 0:
			if t := randomEmpty(); t != noSq {
				q.mine[sq], q.mine[t] = 0, mineOf(x)
				changed = true
			}
		case q.sq[sq] == mk(cruiser, x) && q.mine[sq] == 0 && r.IntN(2) == 0:
			q.attr[sq] ^= attrLoaded
			changed = true
		}
	}
	for _, sq := range brd.Squares() {
		if u := s.pos.uw[x][sq]; u != 0 && q.uw[x][sq] == u && r.IntN(2) == 0 {
			t := randomEmpty()
			if t == noSq {
				continue
			}
			near := false
			for _, n := range orthAdj[t] {
				near = near || q.sq[n] == mk(destroyer, y)
			}
			if !near {
				q.uw[x][sq], q.uw[x][t] = 0, u
				changed = true
			}
		}
	}
	if !changed || q.validate() != nil {
		return nil, nil, false
	}
	a := fromParts(s.pos, s.ruleset, []uint64{s.pos.hash()})
	b := fromParts(q, s.ruleset, []uint64{q.hash()})
	if a.View(rules.ViewPublic).ASCII() != b.View(rules.ViewPublic).ASCII() || a.Outcome() != b.Outcome() {
		return nil, nil, false
	}
	return a, b, true
}
