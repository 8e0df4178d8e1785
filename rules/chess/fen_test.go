package chess

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestFENRoundTrip(t *testing.T) {
	for _, c := range perftTable {
		s := mustFEN(t, c.fen)
		want := c.fen
		if len(strings.Fields(want)) == 4 {
			want += " 0 1"
		}
		if got := s.FEN(); got != want {
			t.Errorf("%s: FEN %q, want %q", c.name, got, want)
		}
	}
	s := play(t, mustFEN(t, StartFEN), "e4", "c5", "Nf3")
	if got := s.FEN(); got != "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
		t.Errorf("after 1. e4 c5 2. Nf3: %s", got)
	}
	if got := play(t, mustFEN(t, StartFEN), "e4").FEN(); got != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Errorf("after 1. e4: %s", got)
	}
}

func TestFENErrors(t *testing.T) {
	for fen, want := range map[string]string{
		"":      "a FEN has 6 fields",
		"8/8/8": "a FEN has 6 fields",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1":            "has 7 ranks",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":   "rank 6 describes more than 8 cells",
		"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1":   "rank 6 describes 7 cells, want 8",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1":  "rank 1 describes more than 8 cells",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1":   `"X" is not a piece letter`,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1":   `side to move is "x"`,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1":   "castling rights",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1":   "castling rights",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1":  "en passant square",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1":  "does not follow a pawn's double step",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1":   "halfmove clock",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0":   "fullmove number",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1":   "White has 0 kings",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1":      "White has 2 kings",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1":    "a pawn stands on the first or last rank",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1":   "castling right K needs the king and a rook on e1 and h1",
		"rnbqkbnr/pppppppp/8/8/8/Q7/PPPPPPPP/RNBQKBNR w KQkq - 0 1":  "more pieces than 8 pawns and their promotions",
		"rnbqkbnr/ppppp1pp/8/7Q/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1":  "the side not to move is in check",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x": "a FEN has 6 fields",
	} {
		_, err := ParseFEN(fen)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", fen, err, want)
		}
	}
	if _, err := Variant.New(rules.Options{Position: "8/8"}); err == nil {
		t.Error("New accepts a bad FEN")
	}
	if _, err := Variant.New(rules.Options{Ruleset: "blitz"}); err == nil || !strings.Contains(err.Error(), `unknown ruleset "blitz"`) {
		t.Errorf("New with an unknown ruleset: %v", err)
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, c := range perftTable {
		f.Add(c.fen)
	}
	f.Add("8/8/8/K2pP2q/8/8/8/7k w - d6 0 1")
	f.Add("4k3/8/8/8/8/8/8/4K3 b - - 99 300")
	f.Fuzz(func(t *testing.T, fen string) {
		s, err := ParseFEN(fen)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		out := s.FEN()
		again, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", fen, out, err)
		}
		if again.FEN() != out || again.pos != s.pos {
			t.Fatalf("%q: %q parses back to %q", fen, out, again.FEN())
		}
	})
}

// FuzzParse feeds move texts to a few positions: no panic, and whatever
// parses is a legal move whose SAN reads back as the same move.
func FuzzParse(f *testing.F) {
	fens := []string{StartFEN, perftTable[1].fen, perftTable[3].fen, "4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"}
	for i, seed := range []string{"e4", "Nf3", "O-O", "0-0-0", "e7e8q", "bxc3", "Bxc3", "exd6 e.p.", "Ng1-f3", "", "Qxh7#", "a8=Q+", "K e1 - g1"} {
		f.Add(uint8(i), seed)
	}
	states := make([]*State, len(fens))
	for i, fen := range fens {
		states[i] = mustFEN(f, fen)
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		s := states[int(which)%len(states)]
		m, err := s.Parse(text)
		if err != nil {
			if _, ok := err.(*rules.MoveError); !ok {
				t.Fatalf("%q: error %v is not a *rules.MoveError", text, err)
			}
			return
		}
		if _, ok := s.find(m); !ok {
			t.Fatalf("%q parsed to a move that is not legal: %+v", text, m)
		}
		san := s.Format(m)
		back, err := s.Parse(san)
		if err != nil || back != m {
			t.Fatalf("%q → %q → %+v, %v", text, san, back, err)
		}
	})
}

func FuzzUnmarshal(f *testing.F) {
	for _, moves := range [][]string{nil, {"e4"}, {"e4", "e5", "Nf3", "Nc6", "Bb5"}, {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3"}} {
		data, _ := play(f, mustFEN(f, StartFEN), moves...).MarshalBinary()
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"rules":"fide","start":"` + StartFEN + `","ply":1,"base":"` + StartFEN + `","line":["e2e5"]}`))
	f.Add([]byte(`{"v":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Variant.Unmarshal(data)
		if err != nil {
			return
		}
		if err := st.Check(); err != nil {
			t.Fatalf("decoded state fails its check: %v", err)
		}
		again, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Variant.Unmarshal(again)
		if err != nil {
			t.Fatalf("re-encoded state does not decode: %v", err)
		}
		if third, _ := back.MarshalBinary(); !bytes.Equal(third, again) {
			t.Fatalf("encoding is not stable")
		}
	})
}
