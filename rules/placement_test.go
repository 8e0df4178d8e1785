package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestPlacement(t *testing.T) {
	tests := []struct {
		name    string
		pl      rules.Placement
		text    string
		want    map[string]string // square → token
		wantErr string
	}{
		{name: "chess start rank", pl: rules.Placement{Board: rules.ChessBoard},
			text: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
			want: map[string]string{"a8": "r", "e4": "P", "e1": "K", "h1": "R"}},
		{name: "marks and brackets", pl: rules.Placement{Board: rules.ChessBoard, Marks: "'+"},
			text: "7k/8/8/8/8/8/8/F'[Bm]S+5",
			want: map[string]string{"h8": "k", "a1": "F'", "b1": "Bm", "c1": "S+"}},
		{name: "one mark at most", pl: rules.Placement{Board: rules.ChessBoard, Marks: "'+"},
			text: "7k/8/8/8/8/8/8/F'+6",
			want: map[string]string{"a1": "F'", "b1": "+"}},
		{name: "too few ranks", pl: rules.Placement{Board: rules.ChessBoard}, text: "8/8", wantErr: "has 2 ranks, want 8"},
		{name: "rank too long", pl: rules.Placement{Board: rules.ChessBoard}, text: "9/8/8/8/8/8/8/8", wantErr: "rank 8 describes more than 8 cells"},
		{name: "piece past the end", pl: rules.Placement{Board: rules.ChessBoard}, text: "8k/8/8/8/8/8/8/8", wantErr: "rank 8 describes more than 8 cells"},
		{name: "rank too short", pl: rules.Placement{Board: rules.ChessBoard}, text: "7/8/8/8/8/8/8/8", wantErr: "rank 8 describes 7 cells, want 8"},
		{name: "zero", pl: rules.Placement{Board: rules.ChessBoard}, text: "08/8/8/8/8/8/8/8", wantErr: `"08" is not a number`},
		{name: "unclosed bracket", pl: rules.Placement{Board: rules.ChessBoard}, text: "[Bm/8/8/8/8/8/8/8", wantErr: "unclosed or empty ["},
		{name: "empty bracket", pl: rules.Placement{Board: rules.ChessBoard}, text: "[]7/8/8/8/8/8/8/8", wantErr: "unclosed or empty ["},
		{name: "dots for empty cells, heights as marks", pl: rules.Placement{Board: rules.BalticBoard, Marks: "12", Empty: '.'},
			text: "glcssclg/....s.../......../......../......../......../...S2..../GLCSSCLG",
			want: map[string]string{"a8": "g", "e7": "s", "d2": "S2", "h1": "G"}},
		{name: "the bottom ranks only", pl: rules.Placement{Board: rules.BalticBoard, Marks: "12", Empty: '.', Ranks: 2},
			text: "...S..../GLCSSCLG", want: map[string]string{"d2": "S", "a1": "G"}},
		{name: "too many dots", pl: rules.Placement{Board: rules.BalticBoard, Empty: '.', Ranks: 1}, text: ".........", wantErr: "rank 1 describes more than 8 cells"},
		{name: "piece on a counted hole", pl: rules.Placement{Board: rules.SubmachineBoard, CountHoles: true, HoleRuling: "M1"},
			text: "11/11/11/11/11/11/11/11/11/1P9/11/11", wantErr: "a piece on b3, a hole (M1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]string{}
			err := tt.pl.Parse(tt.text, func(sq rules.Square, tok string) error {
				got[tt.pl.Board.Name(sq)] = tok
				return nil
			})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for sq, tok := range tt.want {
				if got[sq] != tok {
					t.Errorf("%s: %q, want %q", sq, got[sq], tok)
				}
			}
			// Written back from what was read, it is the same text.
			back := tt.pl.Format(func(sq rules.Square) string { return got[tt.pl.Board.Name(sq)] })
			if back != tt.text {
				t.Errorf("Format: %q, want %q", back, tt.text)
			}
		})
	}
	// An error of the callback stops the reading and comes back as it is.
	stop := fmt.Errorf("no queens here")
	err := rules.Placement{Board: rules.ChessBoard}.Parse("q7/8/8/8/8/8/8/8", func(rules.Square, string) error { return stop })
	if err != stop {
		t.Errorf("error %v, want the callback's", err)
	}
}

// A variant's position strings go through one Placement: the squares of
// each rank from the top, runs of empty squares as numbers.
func ExamplePlacement() {
	pl := rules.Placement{Board: rules.ChessBoard}
	pieces := 0
	_ = pl.Parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", func(sq rules.Square, tok string) error {
		pieces++
		return nil
	})
	e4 := rules.ChessBoard.At(4, 3)
	fmt.Println(pieces, pl.Format(func(sq rules.Square) string {
		if sq == e4 {
			return "P"
		}
		return ""
	}))
	// Output: 32 8/8/8/8/4P3/8/8/8
}

// FuzzPlacement: any text either is refused or reads back the same after
// being written out, on a board with holes skipped and one with holes
// counted.
func FuzzPlacement(f *testing.F) {
	for _, s := range []string{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "7k/8/8/8/8/8/8/F'[Bm]S+5", "[]", "9/", "//////", "01"} {
		f.Add(s)
	}
	placements := []rules.Placement{
		{Board: rules.ChessBoard, Marks: "'+"},
		{Board: rules.SubmachineBoard, CountHoles: true},
		{Board: rules.SeachessBoard},
		{Board: rules.BalticBoard, Marks: "12", Empty: '.', Ranks: 2},
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, pl := range placements {
			got := map[rules.Square]string{}
			if err := pl.Parse(text, func(sq rules.Square, tok string) error {
				if tok == "" || sq == rules.NoSquare {
					t.Fatalf("token %q on %d", tok, sq)
				}
				got[sq] = tok
				return nil
			}); err != nil {
				continue
			}
			out := pl.Format(func(sq rules.Square) string { return got[sq] })
			again := map[rules.Square]string{}
			if err := pl.Parse(out, func(sq rules.Square, tok string) error { again[sq] = tok; return nil }); err != nil {
				t.Fatalf("%q → %q does not read back: %v", text, out, err)
			}
			if len(again) != len(got) {
				t.Fatalf("%q → %q: %d pieces, then %d", text, out, len(got), len(again))
			}
			for sq, tok := range got {
				if again[sq] != tok {
					t.Fatalf("%q → %q: %q became %q", text, out, tok, again[sq])
				}
			}
		}
	})
}
