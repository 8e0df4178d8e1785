package battle

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

func start(t testing.TB) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// TestPerftStart asserts perft from the start. Depths 1 and 2 are hand
// counts: White has 52 first moves (cavalry d1 and i1 5 each; c2 2, j2 1;
// the rank-3 soldiers on dark c3/e3/g3/i3 3 or 4 one-square moves, on light
// d3/f3/h3 six moves and j3 eight), Red mirrors them with the colours
// swapped for another 52, and no first move meets another at depth 2
// (52 × 52 = 2704). Every depth is also recounted by the independent
// reference in ref_test.go.
// Depth 4 (10,194,583) is recounted by the reference only with
// BOTTLEPOST_LONG=1 (minutes).
func TestPerftStart(t *testing.T) {
	s := start(t)
	want := []uint64{1, 52, 2704, 166548, 10194583}
	ref := refFromEngine(&s.pos)
	for depth, n := range want {
		if got := rules.Perft(s, depth); got != n {
			t.Errorf("perft(%d) = %d, want %d", depth, got, n)
		}
		if depth <= 2 || (depth == 3 && !testing.Short()) || rulestest.Long() {
			if got := ref.perft(depth); got != n {
				t.Errorf("reference perft(%d) = %d, want %d", depth, got, n)
			}
		}
	}
}

// BenchmarkPerft4 is the perft of docs/performance.md:
// go test -run '^$' -bench Perft ./rules/battle/
func BenchmarkPerft4(b *testing.B) {
	s := start(b)
	for b.Loop() {
		if n := rules.Perft(s, 4); n != 10194583 {
			b.Fatalf("perft(4) = %d", n)
		}
	}
	b.ReportMetric(10194583*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// TestPerftFastPathAgreesWithApply compares the Perfter fast path with the
// generic count through Moves and Apply from a few mid-game positions.
func TestPerftFastPathAgreesWithApply(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for g := range 6 {
		var s rules.State = start(t)
		for range 20 + 15*g {
			ms := s.Moves()
			if len(ms) == 0 {
				break
			}
			s, _, _ = s.Apply(ms[r.IntN(len(ms))])
		}
		for depth := 1; depth <= 2; depth++ {
			var slow uint64
			for _, e := range rules.Divide(s, depth) {
				slow += e.Nodes
			}
			if fast := rules.Perft(s, depth); fast != slow {
				t.Errorf("game %d depth %d: fast %d, generic %d (%s)", g, depth, fast, slow, s.(*State).Position())
			}
		}
	}
}

// TestMovesMatchReference plays random games and compares, at every
// position, the engine's legal moves and check flag with the reference's.
func TestMovesMatchReference(t *testing.T) {
	games, plies := rulestest.Size(1, 6, 400), rulestest.Size(300, 300, 1000)
	positions := 0
	for g := range games {
		r := rand.New(rand.NewPCG(77, uint64(g)))
		var s rules.State = start(t)
		for ply := 0; ply < plies && !s.Outcome().Over(); ply++ {
			st := s.(*State)
			ref := refFromEngine(&st.pos)
			if got, want := engineTexts(st), refTexts(ref.legal()); !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d %s:\nengine    %v\nreference %v", g, ply, st.Position(), got, want)
			}
			if got, want := st.check != rules.NoSquare, ref.hqAttacked(ref.side); got != want {
				t.Fatalf("game %d ply %d %s: check %v, reference %v", g, ply, st.Position(), got, want)
			}
			positions++
			ms := s.Moves()
			s, _, _ = s.Apply(ms[r.IntN(len(ms))])
		}
	}
	t.Logf("%d positions compared", positions)
}

// value ranks the pieces for the playouts' aggressive side.
var value = [numTypes]int{0, 0, 9, 6, 5, 4, 3, 1}

// aggressor returns a playout policy in which side plays aggressively: it
// mates in one when it can, else mostly takes the most valuable piece it
// can (by capture, shot or removal at the far end), else often gives check,
// else often marches a soldier forward; the other side plays uniformly at
// random. Uniform play on both sides averages over 1,200 plies a game
// (TestMovesMatchReference plays it); this about 250, most games ending in
// checkmate and every other ending of C5 showing up too.
func aggressor(side rules.Side) func(r *rand.Rand, s rules.State, moves []rules.Move) int {
	return func(r *rand.Rand, s rules.State, moves []rules.Move) int {
		st := s.(*State)
		if st.pos.side != side {
			return r.IntN(len(moves))
		}
		best, bestV := -1, 0
		var checks, marches []int
		for i, m := range moves {
			v := 0
			if m.Kind == kindShot || st.pos.cells[m.To] != 0 {
				v += value[typeOf(st.pos.cells[m.To])]
			}
			if m.Aux != rules.NoSquare {
				v += value[typeOf(st.pos.cells[m.Aux])]
			}
			if v > bestV || (v == bestV && v > 0 && r.IntN(2) == 0) {
				best, bestV = i, v
			}
			if n, _ := st.pos.play(m); n.inCheck() {
				if n.countLegal() == 0 {
					return i
				}
				checks = append(checks, i)
			}
			if m.Piece == pSoldier && (board.Rank(m.To)-board.Rank(m.From))*(1-2*int(side)) > 0 {
				marches = append(marches, i)
			}
		}
		switch {
		case best >= 0 && r.Float64() < 0.9:
			return best
		case len(checks) > 0 && r.Float64() < 0.8:
			return checks[r.IntN(len(checks))]
		case len(marches) > 0 && r.Float64() < 0.6:
			return marches[r.IntN(len(marches))]
		}
		return r.IntN(len(moves))
	}
}

// TestPlayouts plays 1,000 games to the end (10,000 with BOTTLEPOST_LONG=1,
// 40 under -short) in four parallel parts, White the aggressor in two, Red
// in the others, and expects every ending of C5 among them (but for the
// few games of -short).
func TestPlayouts(t *testing.T) {
	games := rulestest.Size(40, 1000, 10000)
	const parts = 4
	var mu sync.Mutex
	endings := map[string]int{}
	t.Cleanup(func() {
		t.Logf("endings: %v", endings)
		for _, reason := range []string{"checkmate", "stalemate", "threefold repetition", "50 moves each without capture, shot or soldier move"} {
			if endings[reason] == 0 && !t.Failed() && !testing.Short() {
				t.Errorf("no game ended by %s", reason)
			}
		}
	})
	for part := range parts {
		t.Run(fmt.Sprintf("part%d", part), func(t *testing.T) {
			t.Parallel()
			st := rulestest.Playout(t, rulestest.Config{
				Variant: Variant, Games: games / parts, Seed: 1933 + uint64(part),
				Choose: aggressor(rules.Side(part % 2)),
			})
			t.Log(st)
			if st.Finished != games/parts {
				t.Errorf("%d of %d games finished", st.Finished, games/parts)
			}
			mu.Lock()
			defer mu.Unlock()
			for k, n := range st.Results {
				endings[k] += n
			}
		})
	}
}

func TestApplyRefusesWithoutChange(t *testing.T) {
	s := start(t)
	before, _ := s.MarshalBinary()
	bad := rules.Move{From: board.MustParse("d3"), To: board.MustParse("d6"), Aux: rules.NoSquare, Piece: pSoldier}
	_, _, err := s.Apply(bad)
	var me *rules.MoveError
	if !errorAs(err, &me) || me.Kind != rules.Illegal || me.Input != "Sd3-d6" {
		t.Errorf("Apply(Sd3-d6) = %v", err)
	}
	if _, _, err := s.Apply(rules.Move{From: 200, To: -5}); !errorAs(err, &me) || me.Kind != rules.Illegal {
		t.Errorf("Apply of a move off the board = %v", err)
	}
	if after, _ := s.MarshalBinary(); string(after) != string(before) {
		t.Error("a refused move changed the state")
	}
	over := rulestest.Play(t, Variant, rules.Options{}, sampleGame...)
	if _, _, err := over.Apply(bad); !errorAs(err, &me) || me.Kind != rules.GameOver {
		t.Errorf("Apply after the mate = %v", err)
	}
}

func TestVariantIdentity(t *testing.T) {
	if Variant.ID() != "battle" || Variant.Name() != "Chess-Battle" || Variant.Sides() != [2]string{"White", "Red"} {
		t.Errorf("identity %s %s %v", Variant.ID(), Variant.Name(), Variant.Sides())
	}
	if Variant.Board() != rules.BattleBoard || Variant.Hidden() {
		t.Error("board or hidden flag wrong")
	}
	if !slices.Equal(Variant.Rulesets(), []string{"standard"}) {
		t.Errorf("rulesets %v", Variant.Rulesets())
	}
	if _, err := Variant.New(rules.Options{Ruleset: "blitz"}); err == nil {
		t.Error("an unknown ruleset was accepted")
	}
	if s, err := Variant.New(rules.Options{Ruleset: "standard"}); err != nil || s.Ruleset() != "standard" {
		t.Errorf("standard ruleset: %v", err)
	}
}

func TestHelpFitsTheMail(t *testing.T) {
	lines := strings.Split(strings.TrimRight(Variant.Help(), "\n"), "\n")
	if len(lines) > 40 {
		t.Errorf("help has %d lines, at most 40", len(lines))
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > 72 {
			t.Errorf("help line %d has %d characters: %q", i+1, n, l)
		}
	}
	for _, want := range []string{"C1.1", "C2", "C3.4", "C4", "C5", "C6", "Gc1!c6", "Sd11-d12^h9"} {
		if !strings.Contains(Variant.Help(), want) {
			t.Errorf("help does not mention %s", want)
		}
	}
}

// TestZobristKeysAreStable pins the Zobrist keys: the serialised repetition
// history stores them, so changing them would break stored games.
func TestZobristKeysAreStable(t *testing.T) {
	s := start(t)
	if s.pos.hash != 0xe5ceacbec14f2c8f {
		t.Errorf("start key %#x changed: stored games would no longer load", s.pos.hash)
	}
}

func TestMarshalRoundTripAndErrors(t *testing.T) {
	s := rulestest.Play(t, Variant, rules.Options{}, "Cd1-e4", "Cd12-e9", "Ce4-d1", "Ce9-d12")
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"ruleset":"standard","position":"` + strings.Replace(StartPosition, " 0 1", " 4 3", 1) + `","history":[`
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("format changed:\n%s\nwant prefix\n%s", data, want)
	}
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.(*State).reps != 2 {
		t.Errorf("the decoded state counts %d occurrences of the start, want 2", back.(*State).reps)
	}
	for _, bad := range []string{
		``, `{}`, `{"v":2,"ruleset":"standard","position":"` + StartPosition + `","history":[1]}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","history":[]}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","history":[1]}`,
		`{"v":1,"ruleset":"x","position":"` + StartPosition + `","history":[1]}`,
		`{"v":1,"ruleset":"standard","position":"8/8 w","history":[1]}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","history":[1],"extra":1}`,
		string(data) + `{}`,
	} {
		if _, err := Variant.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("Unmarshal(%q) accepted bad input", bad)
		}
	}
}

func TestPositionStringsRoundTrip(t *testing.T) {
	for _, fen := range []string{
		StartPosition,
		"4h3/8/12/12/12/6G5/12/12/12/12/8/4H3 r 17 40",
	} {
		s, err := Variant.New(rules.Options{Position: fen})
		if err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		if got := s.(*State).Position(); got != fen {
			t.Errorf("position %q written back as %q", fen, got)
		}
	}
	for _, bad := range []string{
		"x", StartPosition + " 5 5 5",
		strings.Replace(StartPosition, "gcmbhmcg", "gcmbhmc", 1),                 // rank 12 short
		strings.Replace(StartPosition, "gcmbhmcg", "gcmbhmcgg", 1),               // rank 12 long
		strings.Replace(StartPosition, "gcmbhmcg", "gcmbxmcg", 1),                // bad letter
		strings.Replace(StartPosition, "gcmbhmcg", "gcmbmmcg", 1),                // no Red headquarter
		strings.Replace(StartPosition, "2ssssssss2", "sssssssssss1", 1),          // 16 soldiers
		strings.Replace(StartPosition, " w ", " b ", 1),                          // side
		strings.Replace(StartPosition, " 0 1", " 101 1", 1),                      // counter
		strings.Replace(StartPosition, " 0 1", " 0 0", 1),                        // move number
		"4h3/8/12/12/12/12/12/12/12/12/8/4H3/8 w",                                // 13 ranks
		"4h3/8/12/12/12/12/12/12/12/12/8/4H3 w 0 1 x",                            // 5 fields
		"4h3/8/12/12/12/12/12/12/12/12/8/4H3 w 99999999999999999999999999999999", // overflow
		"4h3/S7/12/12/12/12/12/12/12/12/8/4H3 w",                                 // soldier on its far end... rank 11 is fine; see next
		"S3h3/8/12/12/12/12/12/12/12/12/8/4H3 w",                                 // White soldier on rank 12
		"4h3/8/12/12/12/12/12/12/12/12/8/4Hr2 w",                                 // Red cavalry? no: r is no piece
		"4h3/4G3/12/12/12/12/12/12/12/12/8/4H3 w",                                // Red in check with White to move
		"4h3/8/12/12/12/12/12/12/12/12/8/4H3 w 0 1000001",
		"4h3/8/0/12/12/12/12/12/12/12/8/4H3 w",
	} {
		if _, err := Variant.New(rules.Options{Position: bad}); err == nil {
			if bad == "4h3/S7/12/12/12/12/12/12/12/12/8/4H3 w" {
				continue // a White soldier on rank 11 is a legal position
			}
			t.Errorf("position %q was accepted", bad)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	s := rulestest.Play(f, Variant, rules.Options{}, "Sd3-d5", "Se10-e8", "Sd5xe6")
	for _, st := range []rules.State{start(f), s} {
		data, _ := st.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"ruleset":"standard","position":"4h3/8/12/12/12/12/12/12/12/12/8/4H3 w","history":[1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Variant.Unmarshal(data)
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("decoded an inconsistent state: %v", err)
		}
		again, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Variant.Unmarshal(again); err != nil {
			t.Fatalf("re-encoded state does not decode: %v", err)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{"Sd3-d4", "Cd1-e4", "cd1e4", "Sd4", "Gc1!c6", "Sd11-d12^h9", "Sd11xe12^h9", "b1", "Hg1-g2+", "Sd3-d5", "d3d5", " S d 3 - d 5 "} {
		f.Add(seed)
	}
	positions := []*State{start(f), setUp(f, "r", "Hg1 Sh11 Gc1 Sf2 Me10 hg12 Gh9 sj2 gc12 ma3 ce6 te12")}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range positions {
			m, err := s.Parse(text)
			if err != nil {
				var me *rules.MoveError
				if !errorAs(err, &me) {
					t.Fatalf("Parse(%q) gave a non-MoveError %v", text, err)
				}
				continue
			}
			canon := s.Format(m)
			back, err := s.Parse(canon)
			if err != nil || back != m {
				t.Fatalf("Parse(%q) = %s, which parses back as %+v, %v", text, canon, back, err)
			}
		}
	})
}

func TestMarshalMatchesJSON(t *testing.T) {
	s := rulestest.Play(t, Variant, rules.Options{}, "Cd1-e4", "Cd12-e9", "Ce4-d1")
	got, _ := s.MarshalBinary()
	st := s.(*State)
	var keys []uint64
	for e := st.hist; e != nil; e = e.prev {
		keys = append([]uint64{e.hash}, keys...)
	}
	want, _ := json.Marshal(wire{V: 1, Ruleset: "standard", Position: st.Position(), History: keys})
	if string(got) != string(want) {
		t.Errorf("MarshalBinary\n%s\nwant\n%s", got, want)
	}
}
