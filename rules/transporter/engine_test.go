package transporter

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// Perft from the start. Depth 1 is counted by hand from the rulings:
// Black's Fighters b9 and i9 have two transports each (4), c8 and h8 four
// moves each (two one-steps, two two-steps: 8), e8 three (its two-step to
// g6 lands on the Interference: no), f8 four (12+4+3+4 = 23 with e8's
// three and the Super Fighters' two each: 27), the Advisors two each (31),
// and the Interference nine squares of rank 6: 36 — nothing else can move.
// Depths 2 and 3 agree with the independent reference generator in
// reference_test.go (TestPerftAgainstReference).
var perftStart = []uint64{1, 36, 1288, 48228, 1793012}

func TestPerftStart(t *testing.T) {
	s := start(t)
	for d := 1; d <= 3; d++ {
		if got := rules.Perft(s, d); got != perftStart[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, perftStart[d])
		}
	}
	if rulestest.Long() {
		if got := rules.Perft(s, 4); got != perftStart[4] {
			t.Errorf("perft(4) = %d, want %d", got, perftStart[4])
		}
	}
}

func TestPerftAgainstReference(t *testing.T) {
	ref := refParse(StartPosition)
	for d := 1; d <= 3; d++ {
		if want, got := ref.perft(d), rules.Perft(start(t), d); got != want {
			t.Errorf("perft(%d): engine %d, reference %d", d, got, want)
		}
	}
}

// TestFastPerftMatchesApply compares the make/unmake perft with the
// generic one that goes through Moves and Apply, on positions from random
// games (outcomes included: the generic perft stops where Apply does).
func TestFastPerftMatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for g := range 20 {
		var s rules.State = start(t)
		for ply := 0; ply < 40+g*5 && !s.Outcome().Over(); ply++ {
			moves := s.Moves()
			s, _, _ = s.Apply(moves[r.IntN(len(moves))])
		}
		slow := rules.ApplyPerft(s, 2)
		if fast := rules.Perft(s, 2); fast != slow {
			t.Fatalf("%s: fast perft %d, generic %d", s.(*State).Position(), fast, slow)
		}
	}
	// Near the draw by the 50-move rule: perft stops at the draw.
	pos := layout(t, "w", "Af1", "Rc3", "ae10", "rc8", "f'a6") // Rc3xc8 restarts the count
	s0, _ := Variant.New(rules.Options{Position: pos})
	s, err := Variant.New(rules.Options{Position: pos + " 98"})
	if err != nil {
		t.Fatal(err)
	}
	if fast, slow := rules.Perft(s, 3), rules.ApplyPerft(s, 3); fast != slow || slow == 0 || slow >= rules.Perft(s0, 3) {
		t.Errorf("near the draw: fast %d, generic %d, from clock 0 %d", fast, slow, rules.Perft(s0, 3))
	}
}

// refPositions is how many playout positions are compared with the slow
// reference generator (200 under -short).
func refPositions() int { return rulestest.Size(200, 2000, 2000) }

// playoutGames is how many games each ruleset's playouts play: 1,000,
// 10,000 with BOTTLEPOST_LONG=1, 40 under -short.
func playoutGames() int { return rulestest.Size(40, 1000, 10000) }

// preferCaptures is the playouts' move choice: half the time the first
// capture on offer, otherwise any move. Uniformly random games last about
// 600 plies and mostly end by the 50-move draw; these last about 200 and
// end every way T6 allows, which keeps the default run short.
func preferCaptures(r *rand.Rand, s rules.State, moves []rules.Move) int {
	if r.IntN(2) == 0 {
		for i, m := range moves {
			if m.Kind == capture {
				return i
			}
		}
	}
	return r.IntN(len(moves))
}

// TestPlayouts plays random games to the end with the shared checks (in
// two halves run in parallel), and compares positions of the first games
// with the reference generator.
func TestPlayouts(t *testing.T) {
	for _, ruleset := range Variant.Rulesets() {
		for half := range 2 {
			t.Run(fmt.Sprintf("%s-%d", ruleset, half), func(t *testing.T) {
				t.Parallel()
				compared := 0
				st := rulestest.Playout(t, rulestest.Config{
					Variant: Variant, Options: rules.Options{Ruleset: ruleset},
					Games: playoutGames() / 2, Seed: uint64(12 + half), Choose: preferCaptures,
					Every: func(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report) {
						a := after.(*State)
						if compared < refPositions()/2 && !a.outcome.Over() {
							compared++
							if got, want := rulestest.MoveTexts(a), refParse(a.Position()).texts(); !reflect.DeepEqual(got, want) {
								t.Fatalf("%s: moves differ from the reference:\nengine    %v\nreference %v", a.Position(), got, want)
							}
						}
						if a.outcome.Reason == "checkmate" && !a.pos.inCheck() {
							t.Fatalf("%s: checkmate without check", a.Position())
						}
					},
				})
				t.Logf("%v; %d positions compared with the reference", st, compared)
				if st.Finished != st.Games {
					t.Errorf("%d of %d games finished", st.Finished, st.Games)
				}
			})
		}
	}
}

func TestSerialisation(t *testing.T) {
	s := play(t, start(t), "Fb9-a8@j8", "Fb2-a3@j3", "Ig6-h6").(*State)
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"ruleset":"standard","position":"racr/1dmbbmdf/2fsffsf1f'/10/7i2/3I6/10/2FSFFSF1F'/1DMBBMDF/RCAR w 1 3",` +
		`"history":["` + hex16(s.hist[0]) + `","` + hex16(s.hist[1]) + `"]}`
	if string(data) != want {
		t.Errorf("encoding\n got %s\nwant %s", data, want)
	}
	back, err := Variant.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	b := back.(*State)
	if b.Position() != s.Position() || !reflect.DeepEqual(b.hist, s.hist) || !reflect.DeepEqual(b.moves, s.moves) {
		t.Errorf("round trip changed the state")
	}
	for _, bad := range []string{
		``, `{}`, `{"v":2}`, `{"v":1,"ruleset":"standard","position":"` + StartPosition + `","history":[]}`,
		`{"v":1,"ruleset":"standard","position":"` + StartPosition + `","history":["0000000000000000"]}`,
		`{"v":1,"ruleset":"other","position":"` + StartPosition + `","history":["0000000000000000"]}`,
		`{"v":1,"ruleset":"standard","position":"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCRR b 0 0","history":["0000000000000000"]}`,
		`{"v":1,"ruleset":"standard","position":"x","history":["0000000000000000"],"extra":1}`,
	} {
		if _, err := Variant.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("Unmarshal(%s) accepted", bad)
		}
	}
}

func hex16(x uint64) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		b[i] = digits[x&15]
		x >>= 4
	}
	return string(b)
}

func TestPositionErrors(t *testing.T) {
	for _, bad := range []string{
		"racr b", StartPosition + " extra field",
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCAR x",     // side
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCARR b",    // rank 1 too long
		"racr/fdmbbmdf/2fsffsf2/9/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCAR b",      // rank 7 too short
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCRR b",     // no White Admiral
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/I9/2FSFFSF2/FDMBBMDF/RCAR b",     // two Interferences
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/I1FSFFSF2/FDMBBMDF/RCAR b",    // one on a transporter
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCAR b 101", // clock
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2F+SFFSF2/FDMBBMDF/RCAR b",    // a promoted Fighter
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FS'FFSF2/FDMBBMDF/RCAR b",    // a moved S
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/F9/2FSFFSF2/FDMBBMDF/RCAR b",     // a seventh Fighter
		"racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/Q9/2FSFFSF2/FDMBBMDF/RCAR b",     // a letter
		"4/8/10/10/10/10/10/10/8/3A b",                                      // no Black Admiral
		"a3/8/10/10/10/10/10/10/8/3A b",                                     // both bare
		"a3/8/10/10/10/10/3R6/10/8/3A w",                                    // not White's turn: Black in check
	} {
		if _, err := Variant.New(rules.Options{Position: bad}); err == nil {
			t.Errorf("position %q accepted", bad)
		}
	}
	if _, err := Variant.New(rules.Options{Ruleset: "fast"}); err == nil {
		t.Error("unknown ruleset accepted")
	}
}

func TestCheckFindsCorruption(t *testing.T) {
	s := start(t)
	bad := *s
	bad.pos.cells[board.MustParse("e5")] = commander
	if bad.Check() == nil {
		t.Error("Check missed a piece added without updating the hash")
	}
	bad = *s
	bad.clock = 5
	bad.hist = []uint64{1, 2}
	if bad.Check() == nil {
		t.Error("Check missed a broken history")
	}
}

func TestViews(t *testing.T) {
	mid := play(t, start(t), sampleGame[:midPly]...)
	for _, c := range []struct {
		name string
		s    rules.State
	}{{"start", start(t)}, {"mid", mid}} {
		for v := range rules.NumViewers {
			rulestest.Golden(t, c.name+"-"+v.String()+".txt", c.s.View(v).ASCII())
		}
	}
}

func TestHelp(t *testing.T) {
	lines := splitLines(Variant.Help())
	if len(lines) > 40 {
		t.Errorf("help has %d lines", len(lines))
	}
	for _, l := range lines {
		if len([]rune(l)) > 72 {
			t.Errorf("help line too long: %q", l)
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range s {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []rules.State{start(f), play(f, start(f), "Fb9-a8@j8", "Fb2-a3@j3", "Ig6-h6")} {
		data, _ := s.MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Variant.Unmarshal(data)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("decoded state fails Check: %v", err)
		}
		again, _ := s.MarshalBinary()
		if _, err := Variant.Unmarshal(again); err != nil {
			t.Fatalf("re-encoded state does not decode: %v", err)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, text := range []string{"Fc8-b7", "Fb9-a8@j8", "fb9a8", "Ig6-a6", "Re10-e9", "Rd3-a3@a8", "Fc8-d9=S", "x", "Fb9xa8@j8+"} {
		f.Add(text)
	}
	states := []rules.State{start(f), setup(f, "w", "Af1", "Rd3", "F'c8", "ae10", "f'a6")}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range states {
			m, err := s.Parse(text)
			if err != nil {
				continue
			}
			back, err := s.Parse(s.Format(m))
			if err != nil || back != m {
				t.Fatalf("%q → %s does not parse back (%v)", text, s.Format(m), err)
			}
		}
	})
}

func BenchmarkPerft4(b *testing.B) {
	s := start(b)
	for b.Loop() {
		if n := rules.Perft(s, 4); n != perftStart[4] {
			b.Fatalf("perft(4) = %d", n)
		}
	}
	b.ReportMetric(float64(perftStart[4])*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
