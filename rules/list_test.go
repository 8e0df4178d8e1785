package rules_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// listGames are a middle game of every variant: plies of random moves from
// a fixed seed, secret moves first (so that Seachess has mines and
// submerged submarines) and captures next (so that Baltic has stacks).
var listGames = []struct {
	variant  string
	seed     uint64
	plies    int
	position string // Options.Position
}{
	{"chess", 1, 30, ""},
	{"seachess", 1, 40, ""},
	{"submachine", 1, 30, ""},
	{"baltic", 3, 0, "g.cs..lg/....ss../8/...[Lc]..../8/..l2...../...S..../GLCS.C.G w"},
	{"battle", 1, 30, ""},
	{"transporter", 1, 30, ""},
}

// midGame plays a listGames entry.
func midGame(t testing.TB, id string, seed uint64, plies int, position string) rules.State {
	t.Helper()
	v, err := variants.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := v.New(rules.Options{Seed: 1, Position: position})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 34))
	for range plies {
		if s.Outcome().Over() {
			break
		}
		moves := s.Moves()
		r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		var best rules.State
		score := -1
		for _, m := range moves {
			next, rep, err := s.Apply(m)
			if err != nil {
				continue
			}
			sc := 0
			if rep.Secret {
				sc = 2
			} else if strings.Contains(rep.Record[rules.ViewReferee], "x") {
				sc = 1
			}
			if sc > score {
				best, score = next, sc
			}
		}
		if best == nil {
			t.Fatalf("%s: no move accepted", id)
		}
		s = best
	}
	return s
}

// TestGoldenLists writes every variant's middle game as a piece list, for
// every viewer, and checks that each line fits a mail's 78 columns.
func TestGoldenLists(t *testing.T) {
	for _, g := range listGames {
		s := midGame(t, g.variant, g.seed, g.plies, g.position)
		for v := range rules.NumViewers {
			name := g.variant + "-" + v.String()
			t.Run(name, func(t *testing.T) {
				list := s.View(v).List(nil)
				for i, line := range strings.Split(list, "\n") {
					if n := utf8.RuneCountInString(line); n > 78 {
						t.Errorf("line %d has %d columns: %q", i+1, n, line)
					}
				}
				rulestest.Golden(t, "list/"+name+".txt", list)
			})
		}
	}
}

// TestListMatchesCells checks, on random positions of every variant and
// for every viewer, that the structured contents say what the cells show:
// a piece where a cell has text and only there, as many pieces as the
// cell has letters, and that the piece list names every piece once.
func TestListMatchesCells(t *testing.T) {
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			rulestest.RandomPositions(t, v, rules.Options{Seed: 2}, 34, rulestest.Size(10, 40, 200), func(s rules.State, where string) {
				for viewer := range rules.NumViewers {
					view := s.View(viewer)
					pieces := 0
					for _, sq := range v.Board().Squares() {
						var got []rules.Piece
						if view.Contents != nil {
							got = view.Contents[sq]
						}
						letters := 0
						for _, r := range view.Cells[sq] {
							if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == '*' {
								letters++
							}
						}
						if (view.Cells[sq] == "") != (len(got) == 0) {
							t.Fatalf("%s %s %s: cell %q, contents %v", where, viewer, v.Board().Name(sq), view.Cells[sq], got)
						}
						if !view.Stacked && letters != len(got) && !strings.Contains(view.Cells[sq], "&") {
							t.Fatalf("%s %s %s: cell %q has %d letters, contents %v", where, viewer, v.Board().Name(sq), view.Cells[sq], letters, got)
						}
						for _, p := range got {
							if p.Hidden && viewer == rules.ViewPublic {
								t.Fatalf("%s: the public sees a hidden %s", where, p.Kind)
							}
							if p.Hidden && viewer <= rules.ViewBlack && p.Side != rules.Side(viewer) {
								t.Fatalf("%s %s: the opponent's hidden %s", where, viewer, p.Kind)
							}
						}
						if view.Stacked && len(got) > 0 {
							pieces++
						} else {
							pieces += len(got)
						}
					}
					list := strings.Join(view.ListLines(nil), " ")
					if got := countSquares(list, v.Board()); got < pieces {
						t.Fatalf("%s %s: the list names %d squares, the board has %d pieces:\n%s", where, viewer, got, pieces, list)
					}
				}
			})
		})
	}
}

// countSquares counts the square names in a list's text.
func countSquares(list string, b *rules.Board) int {
	n := 0
	for _, w := range strings.FieldsFunc(list, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '.' || r == ':' }) {
		if _, err := b.Parse(w); err == nil {
			n++
		}
	}
	return n
}

// TestWordsReplaceable renders a list with another table of words, as a
// game service with another language does: every word of the list comes
// from the table.
func TestWordsReplaceable(t *testing.T) {
	s := midGame(t, "baltic", 3, 0, listGames[3].position)
	w := *rules.English
	w.Side = func(side string, you bool) string { return strings.ToUpper(side) }
	w.Kind = func(kind string, n int, promoted bool) string { return fmt.Sprintf("<%s×%d>", kind, n) }
	w.Piece = func(side, kind string, promoted bool) string { return side + "/" + kind }
	w.Stack = func(p []string) string { return strings.Join(p, " ^ ") }
	w.Stacks = "STACKS"
	w.Title = func(string, [2]string, rules.Viewer) string { return "TITLE" }
	w.Turn = func([2]string, rules.Side, rules.Outcome) string { return "TURN" }
	got := s.View(rules.ViewWhite).List(&w)
	for _, want := range []string{"TITLE\n", "WHITE: <", "BLACK: <", "STACKS: ", " ^ ", "\nTURN\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "Stacks") || strings.Contains(got, " on ") || strings.Contains(got, "to move") {
		t.Errorf("English words in a list of other words:\n%s", got)
	}
}
