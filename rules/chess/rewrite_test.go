package chess

import (
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// spelled gives a state's legal moves as notation spells them.
func spelled(s rules.State) []rules.Spelled { return s.(*State).spelled() }

// TestRewritesReadAsTheMoveOrRefused (issue 37): every legal move of
// random positions, rewritten in every form the notation accepts (with
// and without its letter, the square left in full, as a file, a rank or
// not at all, each separator, either case, spaces, dashes, marks), is read
// as that move or refused, never as another (rulestest.Rewriting).
func TestRewritesReadAsTheMoveOrRefused(t *testing.T) {
	t.Parallel()
	rulestest.Rewriting(t, Variant, &notation, spelled)
}

// FuzzMatch fuzzes the matcher with the "never another move" property
// (rulestest.FuzzRewriting).
func FuzzMatch(f *testing.F) { rulestest.FuzzRewriting(f, Variant, &notation, spelled, "Nf3") }

// TestGermanRewritesReadAsTheMoveOrRefused is the rewrite test for a
// player whose language is German: the same forms with the German piece
// letters too (D T L S, in either case but D's), read through ParseIn.
func TestGermanRewritesReadAsTheMoveOrRefused(t *testing.T) {
	t.Parallel()
	rulestest.RewritingIn(t, Variant, &notationDE, spelled, "de")
}

// FuzzMatchGerman fuzzes the German matcher with the same property.
func FuzzMatchGerman(f *testing.F) {
	rulestest.FuzzRewritingIn(f, Variant, &notationDE, spelled, "Sf3", "de")
}

// TestICCFReadAsTheMoveOrRefused writes every legal move of random
// positions in ICCF numeric notation (ICCF), also spaced and with marks,
// and reads it back: always the move, in either language. Any other
// string of four digits 1–8 (and five with a promotion digit; a random
// sample of them in each position) is read as the move whose ICCF form
// it is, or refused: never as another move.
func TestICCFReadAsTheMoveOrRefused(t *testing.T) {
	t.Parallel()
	moves, texts := 0, 0
	r := rand.New(rand.NewPCG(34, 34))
	rulestest.RandomPositions(t, Variant, rules.Options{}, 34, rulestest.Size(20, 200, 3000), func(st rules.State, where string) {
		s := st.(*State)
		byCode := map[string]rules.Move{}
		for _, m := range s.Moves() {
			code := s.ICCF(m)
			byCode[code] = m
			moves++
			for _, text := range []string{code, code[:2] + " " + code[2:], code + "+", "12. " + code} {
				for _, lang := range []string{"", "de"} {
					texts++
					got, err := rules.ParseIn(s, rules.TrimMoveNumber(text), lang)
					if err != nil || got != m {
						t.Fatalf("%s: %q (%s) read as %v, %v", where, text, s.Format(m), got, err)
					}
				}
			}
		}
		for range 256 { // of the 4,096 codes, a random sample
			from, to := r.IntN(64), r.IntN(64)
			code := string([]byte{'1' + byte(from%8), '1' + byte(from/8), '1' + byte(to%8), '1' + byte(to/8)})
			for _, c := range []string{code, code + "1", code + "4"} {
				got, err := s.Parse(c)
				if want, ok := byCode[c]; err == nil && (!ok || got != want) {
					t.Fatalf("%s: %q read as %s", where, c, s.Format(got))
				}
			}
		}
	})
	t.Logf("%d moves, %d texts", moves, texts)
}

// FuzzICCF reads arbitrary text as a move of a random position: a text
// the ICCF reader takes must be some legal move's ICCF form, spaces and
// marks aside, and nothing may upset Parse.
func FuzzICCF(f *testing.F) {
	for _, s := range []string{"5254", "5171", "57581", "1", "00000", "9999", "52 54+"} {
		f.Add(uint64(1), uint8(10), s)
	}
	f.Fuzz(func(t *testing.T, game uint64, plies uint8, text string) {
		var st rules.State
		rulestest.RandomPositions(t, Variant, rules.Options{}, game%1000, int(plies%60)+1, func(p rules.State, _ string) { st = p })
		s := st.(*State)
		w, ok := iccf(notation.Compact(text))
		got, err := s.Parse(text)
		if !ok || err != nil {
			return
		}
		if code := s.ICCF(got); w.From != got.From || w.To != got.To || (len(code) == 5) != (w.Promo != 0) {
			t.Fatalf("%q, an ICCF text, read as %s (%s)", text, s.Format(got), code)
		}
	})
}
