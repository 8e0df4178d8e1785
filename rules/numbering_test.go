package rules

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMoveLabel(t *testing.T) {
	tests := []struct {
		ply  int
		want string
	}{
		{0, "1."}, {1, "1..."}, {2, "2."}, {3, "2..."}, {22, "12."}, {23, "12..."},
	}
	for _, tt := range tests {
		if got := MoveLabel(tt.ply); got != tt.want {
			t.Errorf("MoveLabel(%d) = %q, want %q", tt.ply, got, tt.want)
		}
	}
}

func TestFullMoves(t *testing.T) {
	tests := []struct{ plies, want int }{{0, 0}, {1, 1}, {2, 1}, {3, 2}, {44, 22}, {45, 23}}
	for _, tt := range tests {
		if got := FullMoves(tt.plies); got != tt.want {
			t.Errorf("FullMoves(%d) = %d, want %d", tt.plies, got, tt.want)
		}
	}
}

func TestNumberedMoves(t *testing.T) {
	tests := []struct {
		name  string
		first int
		moves []string
		want  string
	}{
		{"from the start", 0, []string{"e4", "e5", "Nf3"}, "1. e4 e5 2. Nf3"},
		{"from a reply", 23, []string{"e5", "Nf3"}, "12... e5 13. Nf3"},
		{"one first move", 22, []string{"e4"}, "12. e4"},
		{"one reply", 1, []string{"e5"}, "1... e5"},
		{"nothing", 4, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NumberedMoves(tt.first, tt.moves); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRecordLines(t *testing.T) {
	long := strings.Repeat("x", 30)
	tests := []struct {
		name  string
		first int
		moves []string
		width int
		want  []string
	}{
		{"pairs", 0, []string{"e4", "e5", "Nf3"}, 78, []string{"1. e4 e5", "2. Nf3"}},
		{"numbers aligned", 16, []string{"a3", "a6", "b3", "b6", "c3"}, 78,
			[]string{" 9. a3 a6", "10. b3 b6", "11. c3"}},
		{"starting with a reply", 1, []string{"e5", "Nf3"}, 78, []string{"1... e5", "2. Nf3"}},
		{"a pair too wide", 0, []string{long, long}, 40, []string{"1. " + long, "1... " + long}},
		{"a move too wide", 0, []string{"aa bb cc dd ee"}, 8, []string{"1. aa bb", "   cc dd", "   ee"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RecordLines(tt.first, tt.moves, tt.width)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for _, l := range got {
				if utf8.RuneCountInString(l) > tt.width {
					t.Errorf("line %q is longer than %d", l, tt.width)
				}
			}
		})
	}
}

// TestNumberingAgreesWithPGN checks that every move is numbered the same in
// the record players read and in the PGN movetext, for runs of every
// length.
func TestNumberingAgreesWithPGN(t *testing.T) {
	for n := 1; n <= 9; n++ {
		moves := make([]string, n)
		pgn := make([]PGNMove, n)
		for i := range moves {
			moves[i] = fmt.Sprintf("m%d", i)
			pgn[i] = PGNMove{Text: moves[i]}
		}
		var b bytes.Buffer
		if err := WritePGN(&b, nil, pgn, "*"); err != nil {
			t.Fatal(err)
		}
		movetext := b.String()[strings.Index(b.String(), "\n\n")+2:]
		if got := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(movetext), "*")); got != NumberedMoves(0, moves) {
			t.Errorf("%d moves: PGN %q, mail %q", n, got, NumberedMoves(0, moves))
		}
	}
}

// TestTrimMoveNumber: every way players number a move is read past, and
// nothing else is taken.
func TestTrimMoveNumber(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a first mover's move", "12. Nf3", "Nf3"},
		{"without a space", "12.Nf3", "Nf3"},
		{"a reply", "12... Nf6", "Nf6"},
		{"a reply without a space", "12...Nf6", "Nf6"},
		{"two dots", "12.. Nf6", "Nf6"},
		{"the one-character ellipsis", "12… Nf6", "Nf6"},
		{"the ellipsis without a space", "12…Nf6", "Nf6"},
		{"a number and an ellipsis", "1. … e5", "e5"},
		{"a number and three dots", "1. ... e5", "e5"},
		{"spaces before the dots", "12 ... Nf6", "Nf6"},
		{"a number alone", "12.", ""},
		{"a reply's number alone", "12…", ""},
		{"no number", "Nf3", "Nf3"},
		{"castling with zeros", "0-0", "0-0"},
		{"long castling with zeros", "0-0-0", "0-0-0"},
		{"a number then castling", "5. 0-0", "0-0"},
		{"spaces around", "  7. e4  ", "e4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrimMoveNumber(tt.in); got != tt.want {
				t.Errorf("TrimMoveNumber(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestPGNCommentAlone: a PGNMove with a comment and no text is a comment
// alone (a move taken back before the first move that stands), after which
// the next move carries its number; one with neither is refused.
func TestPGNCommentAlone(t *testing.T) {
	var b strings.Builder
	moves := []PGNMove{{Comment: "White's 1. e4 taken back"}, {Text: "d4"}, {Text: "d5", Comment: "a {note}"}, {Text: "c4"}}
	if err := WritePGN(&b, nil, moves, "*"); err != nil {
		t.Fatal(err)
	}
	if want := "{White's 1. e4 taken back} 1. d4 d5 {a (note)} 2. c4 *\n\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("move text:\n%s\nwant it to end %q", b.String(), want)
	}
	if err := WritePGN(&b, nil, []PGNMove{{}}, "*"); err == nil {
		t.Errorf("a move with neither text nor comment was written")
	}
}
