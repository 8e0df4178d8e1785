package transporter

import (
	"os"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// sampleGame is the annotated game of docs/variants/transporter.md, played
// by a small three-ply search over this engine. Black moves first (T1.2):
// each line is Black's move, then White's.
var sampleGame = []string{
	"Ff8-g7", "Fe3-d4", // 1
	"Cf10xf3", "Sg3xf3", // 2
	"Fi9-j8@j3", "Bf2-h4", // 3
	"Fb9-a8@a3", "Bh4-f6", // 4
	"Fe8-f7", "Bf6-e7", // 5
	"Bf9-b5", "Be7xg9", // 6
	"Dh9xg9", "Fc3-b4", // 7
	"Bb5-c4", "Fb2-c3", // 8
	"Bc4-a6", "Fb4-a5", // 9
	"Ba6-b5", "Fc3-b4", // 10
	"Bb5-c4", "Ce1-h4", // 11
	"Fa3-b2=S", "Ch4xc4", // 12
	"Sb2xc2", "Cc4xc9", // 13
	"Fc8-a6", "Fa5xa6", // 14
	"Be9-f8", "Md2-c3", // 15
	"Md9-c8", "Cc9-b8", // 16
	"Bf8-d6", "Cb8-a7", // 17
	"Bd6xh2", "Mc3xc2", // 18
	"Ff7-e6", "Fh3-j5", // 19
	"Fg7-h6", "Fi2-g4", // 20
	"Fj3-i2=S", "Fj5-i6", // 21
	"Fh8-j6", "Fa6-b7", // 22
	"Mc8xb7", "Fi6-h7", // 23
	"Fe6-f5", "Fb4-a5", // 24
	"Fj6-i5", "Fh7-i8", // 25
	"Sg8-h9", "Fd4-c5", // 26
	"Ff5-e4", "Fc5-d6", // 27
	"Fi5-j4", "Fa5-b6", // 28
	"Mb7xb6", "Mg2-g3", // 29
	"Bh2xg1", "Ca7-c9", // 30
	"Bg1-c5", "Fd6-c7", // 31
	"Rd10-d9", "Cc9-b8", // 32
	"Mb6xc7", "Sd3-c4", // 33
	"Bc5-b6", "Sc4-b5", // 34
	"Bb6-a7", "Id5-i5", // 35
	"Mc7xb8", "Sb5-a6", // 36
	"Sd8-c9", "Rd1xd9", // 37
	"Sc9xd9", "Be2-b5", // 38
	"Sd9-e8", "Sa6xa7", // 39
	"Mb8xa7", "Bb5-c6", // 40
	"Dg9-h8", "Bc6-b7", // 41
	"Ae10-e9", "Bb7-c6", // 42
	"Si2-h3", "Mg3-g2", // 43
	"Sh3-i4", "Fg4-f5", // 44
	"Ig6-j6", "Ff5-e6", // 45
	"Dh8xi8", "Fe6-f7", // 46
	"Di8-g6", "Bc6-d5", // 47
	"Fh6-g5", "Mg2-h3", // 48
	"Rg10-d10", "Bd5-c6", // 49
	"Rd10-d6", "Bc6-a8@a3", // 50
	"Rd6-a6", "Ba3-c5", // 51
	"Ma7-b6", "Bc5-g1", // 52
	"Fg5-h4", "Mh3xi4", // 53
	"Dg6xi4", "Af1-f2", // 54
	"Ae9-f9", "Af2-e1", // 55
	"Af9xf7", "Ii5-a5", // 56
	"Di4-g2", "Ia5-d5", // 57
	"Dg2xf3", "Ae1-f1", // 58
	"Df3-g4", "Bg1xj4", // 59
	"Fe4-f3", "Bj4-e9", // 60
	"Ff3-e2=S", "Mc2-d3", // 61
	"Fh4-i3", "Af1-g2", // 62
	"Af7-f5", "Ag2-g1", // 63
	"Se8-f9", "Be9-d8", // 64
	"Af5-f3", "Md3xe2", // 65
	"Af3xe2", "Id5-b5", // 66
	"Dg4-h3", "Ib5-a5", // 67
	"Dh3-g2", // 68
}

// midPly is where the mid-game golden boards stand: Black's promoted Super
// Fighter (s+) on c2, White's Commodore in Black's camp on c9.
const midPly = 26

func TestSampleGame(t *testing.T) {
	s := play(t, start(t), sampleGame...)
	want := rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "checkmate", Ruling: "T6"}
	if s.Outcome() != want || s.Ply() != 135 {
		t.Errorf("after the sample game: %+v at ply %d, want %+v", s.Outcome(), s.Ply(), want)
	}
	// The document gives the same moves, in the same order.
	doc, err := os.ReadFile("../../docs/variants/transporter.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	at := strings.Index(text, "## Sample game")
	if at < 0 {
		t.Fatal("docs/variants/transporter.md has no \"## Sample game\" section")
	}
	text = text[at:]
	for i, m := range sampleGame {
		k := strings.Index(text, m)
		if k < 0 {
			t.Fatalf("move %d %s is missing from the document's sample game (or out of order)", i+1, m)
		}
		text = text[k+len(m):]
	}
}
