package seachess

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// sampleGame is the annotated game of docs/variants/seachess.md, in
// canonical notation, White's and Black's moves by pairs.
var sampleGame = []string{
	"Bf2-f4", "Be11-e7", // 1
	"Si1-j3", "Be7-e6", // 2
	"Bi2-i4", "Be6-e5", // 3
	"Cc1-M", "Be5-e4", // 4
	"Bd2-d4", "Be4xd3", // 5
	"Bc2xd3", "Sd12-e10", // 6
	"Dh1-i2", "Bd11-d9", // 7
	"O-O", "De12-d11", // 8
	"Af1-f3", "Af12-d10", // 9
	"Cc1-c2", "O-O-O", // 10
	"Sd1v-c3", "Se10-f8", // 11
	"sSc3-d5", "Sf8v-g6", // 12
	"sSd5-c7", "sSg6-h4", // 13
	"sSc7-d9", "sSh4-g2", // 14
	"Ki1-j1", "sSg2^x", // 15
	"Af3xg2", "Ad10xd9", // 16
	"Cc2-c6", "Si12v-h10", // 17
	"Cc6-M", "sSh10-g8", // 18
	"Cc6-b6", "sSg8-f6", // 19
	"Di2-f5", "Bc11-c7", // 20
	"Ag2-h4", "Bc7-c6", // 21
	"Th1-g1", "Sf6v-e4", // 22
	"Df5-e4", "Cf12-M", // 23
	"Tg1-g7", "Ad9-e9", // 24
	"Tg7xte9", "Bh11-h7", // 25
	"Tg7-g2", "Bg11-g7", // 26
	"Ah4xah7", "Bf11-f8", // 27
	"Aaxg7", "Bj11-j7", // 28
	"Aa-A", "Ke12-d12", // 29
	"Sj3v-i5", "Bf8-f7", // 30
	"sSi5-j7^x", "Bf7-f6", // 31
	"De4-i8", "Dh12-g11", // 32
	"Ah4xf6", "Dg11-h10", // 33
	"Bh2-h6", "Dh10-j8", // 34
	"Bh6-h7", "Dj8-l6", // 35
	"Bh7-h8", "Tj12-j11", // 36
	"Bh8-h9", "Tj11-j12", // 37
	"Bh9-h10", "Tj12-j11", // 38
	"Bh10-h11", "Tj11-j12", // 39
	"Bh11-h12=C", "Tj12-j11", // 40
	"Ch12xf12", "Tj11-j12", // 41
	"Be2-e6", "Tj12-j11", // 42
	"Be6-e7", "Tj11-j12", // 43
	"Be7-e8", "Tj12-j11", // 44
	"Be8-e9", "Tj11-j12", // 45
	"Be9-e10", "Tj12-j11", // 46
	"Af6-f8", "Tj11-j12", // 47
	"Af8-f9", // 48
}

// TestSampleGame replays the sample game and checks that it uses every
// power it is meant to show; its record, as the referee and each side read
// it, is the golden file testdata/sample_game.txt.
func TestSampleGame(t *testing.T) {
	s := start(t)
	var b strings.Builder
	kinds := map[uint8]bool{}
	var records []string
	for i, text := range sampleGame {
		if i == 28 {
			// White, in check by a submarine it cannot see, first tries a
			// boat move: the referee refuses it (S5.8, S8.3).
			if _, _, k := tryMove(t, s, "Bh2-h3"); k != rules.Refused {
				t.Errorf("Bh2-h3 in check: %v, want refused", k)
			}
		}
		m, err := s.Parse(text)
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, text, err)
		}
		if s.Format(m) != text {
			t.Errorf("ply %d: %s is not canonical (%s)", i+1, text, s.Format(m))
		}
		kinds[m.Kind] = true
		n, rep := step(t, s, text)
		fmt.Fprintf(&b, "%d%s %s\n", i/2+1, map[bool]string{true: ".", false: "..."}[i%2 == 0], rep.Record[rules.ViewReferee])
		fmt.Fprintf(&b, "    White reads %q, Black reads %q\n", rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack])
		for _, note := range rep.English(rules.ViewReferee) {
			fmt.Fprintf(&b, "    %s\n", note)
		}
		records = append(records, rep.Record[rules.ViewReferee])
		s = n
	}
	if o := s.Outcome(); o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" {
		t.Errorf("outcome %+v", o)
	}
	for k := range numKinds {
		if !kinds[k] {
			t.Errorf("no move of kind %d", k)
		}
	}
	all := strings.Join(records, "\n")
	for _, mark := range []string{"-Mx", ">f6^", "; sS", "xsS", "<M", "<T", "=C", "(h)", "+", "^x"} {
		if !strings.Contains(all, mark) {
			t.Errorf("the record never shows %q", mark)
		}
	}
	rulestest.Golden(t, "sample_game.txt", b.String())
}

// TestGoldenViews keeps every viewer's board of the start and of the
// sample game after 18 moves each (mines, a cruiser on its mine, a
// submerged submarine) as golden files.
func TestGoldenViews(t *testing.T) {
	mid := play(t, start(t), sampleGame[:36]...)
	for name, s := range map[string]*State{"start": start(t), "midgame": mid} {
		for v := range rules.NumViewers {
			rulestest.Golden(t, name+"_"+v.String()+".txt", s.View(v).ASCII())
		}
	}
}
