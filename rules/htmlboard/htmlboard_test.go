package htmlboard_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/rulestest"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// play makes plies seeded random moves from the start of variant id, preferring
// secret moves when secret is set, and returns the state with the last
// move's report.
func play(t testing.TB, id string, plies int, seed uint64, secret bool) (rules.State, *rules.Report) {
	t.Helper()
	v, err := variants.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := v.New(rules.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 23))
	var last *rules.Report
	for range plies {
		moves := s.Moves()
		if len(moves) == 0 {
			break
		}
		r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		var next rules.State
		var rep *rules.Report
		for pass := 0; pass < 2 && next == nil; pass++ {
			for _, m := range moves {
				n, p, err := s.Apply(m)
				if err != nil || (pass == 0 && secret && !p.Secret) {
					continue
				}
				next, rep = n, p
				break
			}
		}
		if next == nil {
			break
		}
		s, last = next, rep
	}
	return s, last
}

// page wraps a rendering in a minimal document, so that a golden file opens
// in a browser as it is.
func page(body string) string {
	return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>board</title></head>\n<body style=\"margin:8px;background:#ffffff\">\n" + body + "</body></html>\n"
}

// TestGoldenBoards renders a position of every variant, after some seeded
// random moves with the last one highlighted, as White, Black and the
// public see it; Seachess also as the referee, after secret moves, so that
// own mines and submerged submarines are marked.
func TestGoldenBoards(t *testing.T) {
	for _, v := range variants.All() {
		plies := 14
		if v.ID() == "baltic" {
			plies = 24 // stacks form
		}
		s, rep := play(t, v.ID(), plies, 7, v.ID() == "seachess")
		viewers := []rules.Viewer{rules.ViewWhite, rules.ViewBlack, rules.ViewPublic}
		if v.Hidden() {
			viewers = append(viewers, rules.ViewReferee)
		}
		for _, viewer := range viewers {
			name := v.ID() + "-" + viewer.String()
			t.Run(name, func(t *testing.T) {
				view := s.View(viewer)
				got := string(htmlboard.Render(view, htmlboard.Options{Last: htmlboard.LastMove(rep, v.Board(), viewer)}))
				checkWellFormed(t, got)
				rulestest.Golden(t, name+".html", page(got))
			})
		}
	}
}

// checkWellFormed is a cheap sanity check of the markup: no <style>, no
// <svg>, no <img>, no script, and balanced tables, rows and cells.
func checkWellFormed(t *testing.T, got string) {
	t.Helper()
	for _, bad := range []string{"<style", "<svg", "<img", "<script", "class="} {
		if strings.Contains(got, bad) {
			t.Errorf("rendering contains %q: mail clients strip it", bad)
		}
	}
	for _, tag := range []string{"table", "tr", "td", "span", "p", "div"} {
		open := strings.Count(got, "<"+tag+">") + strings.Count(got, "<"+tag+" ")
		if closed := strings.Count(got, "</"+tag+">"); open != closed {
			t.Errorf("<%s> opened %d times, closed %d", tag, open, closed)
		}
	}
}

// TestBoardGeometry checks, for every variant and viewer, that the table
// has one cell per grid cell plus the coordinates, that missing squares are
// blank gaps, that each existing square is named in its title, and that
// Black's board is turned round.
func TestBoardGeometry(t *testing.T) {
	for _, v := range variants.All() {
		s, _ := play(t, v.ID(), 0, 1, false)
		b := v.Board()
		for _, viewer := range []rules.Viewer{rules.ViewWhite, rules.ViewBlack} {
			t.Run(v.ID()+"-"+viewer.String(), func(t *testing.T) {
				got := string(htmlboard.Table(s.View(viewer), htmlboard.Options{}))
				if n, want := strings.Count(got, "<tr"), b.Ranks()+2; n != want {
					t.Errorf("%d rows, want %d", n, want)
				}
				if n, want := strings.Count(got, "<td")+strings.Count(got, "<th"), (b.Ranks()+2)*(b.Files()+2); n != want {
					t.Errorf("%d cells, want %d", n, want)
				}
				if n, want := strings.Count(got, `<th scope="col"`), b.Files(); n != want {
					t.Errorf("%d column headers, want %d", n, want)
				}
				if n, want := strings.Count(got, `<th scope="row"`), b.Ranks(); n != want {
					t.Errorf("%d row headers, want %d", n, want)
				}
				if !strings.Contains(got, "<caption") {
					t.Error("no caption")
				}
				if n, want := strings.Count(got, `<td bgcolor="#ffffff"></td>`), b.Size()-b.Count(); n != want {
					t.Errorf("%d blank gaps, want %d missing squares", n, want)
				}
				for _, sq := range b.Squares() {
					if !strings.Contains(got, `aria-label="`+b.Name(sq)+`"`) && !strings.Contains(got, `aria-label="`+b.Name(sq)+`,`) {
						t.Errorf("square %s is not drawn", b.Name(sq))
					}
				}
				first := strings.Index(got, `aria-label="`)
				corner := b.Name(b.Squares()[len(b.Squares())-1]) // highest rank, highest file
				if viewer == rules.ViewBlack {
					corner = b.Name(b.Squares()[0])
				}
				rowStart := strings.LastIndex(got[:first], "<tr")
				row := got[rowStart : strings.Index(got[first:], "</tr>")+first]
				if !strings.Contains(row, `aria-label="`+corner+`"`) && !strings.Contains(row, `aria-label="`+corner+`,`) {
					t.Errorf("the top row does not hold %s", corner)
				}
			})
		}
	}
}

// maxChessTable bounds the chess board table, sent in every chess mail
// (its HTML part): in bytes, the 32 pieces of the start and a last move
// highlighted. The table weighed about 19.8 kB when every cell repeated
// its style, 8.6 kB with the pieces as letters on discs (about 125 bytes
// of inline style each); it is now about 7.8 kB, with figurines and every
// square's accessible name (some 25 bytes each).
const maxChessTable = 9000

// TestChessTableSize keeps the chess board table compact: a size that
// grows past maxChessTable costs every board mail (the load goal, the
// outbox, the 64 KB cap on a reply).
func TestChessTableSize(t *testing.T) {
	v, _ := variants.Lookup("chess")
	s, _ := v.New(rules.Options{})
	m, err := s.Parse("Nf3")
	if err != nil {
		t.Fatal(err)
	}
	s, rep, err := s.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, viewer := range []rules.Viewer{rules.ViewWhite, rules.ViewBlack, rules.ViewPublic} {
		t.Run(viewer.String(), func(t *testing.T) {
			got := htmlboard.Table(s.View(viewer), htmlboard.Options{Last: htmlboard.LastMove(rep, v.Board(), viewer)})
			if n := len(got); n > maxChessTable {
				t.Errorf("the chess table weighs %d bytes, more than %d", n, maxChessTable)
			}
			if n := strings.Count(string(got), "<span aria-hidden"); n != 32 {
				t.Errorf("%d pieces drawn, want 32", n)
			}
		})
	}
}

// TestHiddenMarkedForTheirOwnerOnly plays Seachess with secret moves and
// checks that the owner's board frames the hidden cells in red and says so,
// while the opponent's and the public's boards carry no frame and never
// highlight a secret move.
func TestHiddenMarkedForTheirOwnerOnly(t *testing.T) {
	const frame = "dashed #d00000"
	sawHidden := false
	for seed := range uint64(12) {
		s, rep := play(t, "seachess", 10+int(seed), seed, true)
		v := s.Variant()
		for _, viewer := range []rules.Viewer{rules.ViewWhite, rules.ViewBlack, rules.ViewPublic} {
			view := s.View(viewer)
			got := string(htmlboard.Render(view, htmlboard.Options{Last: htmlboard.LastMove(rep, v.Board(), viewer)}))
			hidden := 0
			for _, h := range view.Hidden {
				if h {
					hidden++
				}
			}
			if viewer == rules.ViewPublic && hidden > 0 {
				t.Fatalf("seed %d: the public view marks %d hidden cells", seed, hidden)
			}
			if n := strings.Count(got, frame); n < hidden {
				t.Errorf("seed %d, %s: %d framed pieces for %d hidden cells", seed, viewer, n, hidden)
			}
			if hidden == 0 && strings.Contains(got, frame) {
				t.Errorf("seed %d, %s: a frame without hidden cells", seed, viewer)
			}
			if hidden > 0 {
				sawHidden = true
				if !strings.Contains(got, "only you see it") {
					t.Errorf("seed %d, %s: the legend does not explain the frame", seed, viewer)
				}
			}
			if rep.Secret && viewer != rules.ViewerOf(rep.Mover) && strings.Contains(got, "the last move") {
				t.Errorf("seed %d, %s: a secret move is highlighted", seed, viewer)
			}
		}
	}
	if !sawHidden {
		t.Fatal("no seed produced a hidden piece: the test proves nothing")
	}
}

// TestLastMove covers who may see which squares of a move.
func TestLastMove(t *testing.T) {
	b := rules.ChessBoard
	e2, e4 := b.MustParse("e2"), b.MustParse("e4")
	open := &rules.Report{Move: rules.Move{From: e2, To: e4, Aux: rules.NoSquare}, Mover: rules.White}
	secret := &rules.Report{Move: open.Move, Mover: rules.White, Secret: true}
	tests := []struct {
		name   string
		rep    *rules.Report
		viewer rules.Viewer
		want   string
	}{
		{"no move yet", nil, rules.ViewWhite, ""},
		{"open move, opponent", open, rules.ViewBlack, "e2 e4"},
		{"open move, public", open, rules.ViewPublic, "e2 e4"},
		{"secret move, mover", secret, rules.ViewWhite, "e2 e4"},
		{"secret move, referee", secret, rules.ViewReferee, "e2 e4"},
		{"secret move, opponent", secret, rules.ViewBlack, ""},
		{"secret move, public", secret, rules.ViewPublic, ""},
		{"same square twice", &rules.Report{Move: rules.Move{From: e4, To: e4, Aux: e4}}, rules.ViewPublic, "e4"},
		{"squares off the board", &rules.Report{Move: rules.Move{From: rules.NoSquare, To: 200, Aux: -5}}, rules.ViewPublic, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := b.Names(htmlboard.LastMove(tc.rep, b, tc.viewer)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEscapes checks that cell texts, status and legend lines are escaped.
func TestEscapes(t *testing.T) {
	s, _ := play(t, "chess", 0, 1, false)
	view := s.View(rules.ViewWhite)
	view.Cells[0] = "<b>"
	view.Status = []string{"a <script> & more"}
	view.Legend = []string{`"quoted" <i>`}
	got := string(htmlboard.Render(view, htmlboard.Options{}))
	for _, bad := range []string{"<b>", "<script>", "<i>"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q is not escaped", bad)
		}
	}
	if !strings.Contains(got, "a &lt;script&gt; &amp; more") {
		t.Error("the status line is missing or escaped wrongly")
	}
}

// BenchmarkRenderChess draws the board block of every chess mail: the start
// position after one move, as White sees it, with the move highlighted.
func BenchmarkRenderChess(b *testing.B) {
	v, _ := variants.Lookup("chess")
	s, _ := v.New(rules.Options{})
	m, err := s.Parse("Nf3")
	if err != nil {
		b.Fatal(err)
	}
	s, rep, err := s.Apply(m)
	if err != nil {
		b.Fatal(err)
	}
	view := s.View(rules.ViewWhite)
	last := htmlboard.LastMove(rep, v.Board(), rules.ViewWhite)
	b.ReportAllocs()
	for b.Loop() {
		_ = htmlboard.Render(view, htmlboard.Options{Last: last})
	}
}

func BenchmarkRenderSeachess(b *testing.B) {
	s, rep := play(b, "seachess", 30, 3, true)
	view := s.View(rules.ViewWhite)
	last := htmlboard.LastMove(rep, s.Variant().Board(), rules.ViewWhite)
	b.ReportAllocs()
	for b.Loop() {
		_ = htmlboard.Render(view, htmlboard.Options{Last: last})
	}
}

func ExampleRender() {
	v, _ := variants.Lookup("chess")
	s, _ := v.New(rules.Options{})
	m, _ := s.Parse("e4")
	s, rep, _ := s.Apply(m)
	view := s.View(rules.ViewBlack)
	board := htmlboard.Render(view, htmlboard.Options{Last: htmlboard.LastMove(rep, v.Board(), rules.ViewBlack)})
	fmt.Println(strings.Contains(string(board), `aria-label="e4, white pawn" bgcolor="`+htmlboard.Colours.LastLight+`"`))
	fmt.Println(htmlboard.Legend(view, htmlboard.Options{Last: []rules.Square{rep.Move.From, rep.Move.To}})[1])
	// Output:
	// true
	// Yellow squares: the last move (e2 e4).
}
