package rules_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// shape is a test-only variant: an empty board of a given geometry with a
// few labelled squares, to render every board shape through the one
// renderer the variants use.
type shape struct {
	board  *rules.Board
	labels map[string]string
}

func (v shape) ID() string                             { return v.board.String() }
func (v shape) Name() string                           { return "Shape " + v.board.String() }
func (v shape) Sides() [2]string                       { return [2]string{"White", "Black"} }
func (v shape) Rulesets() []string                     { return []string{"standard"} }
func (v shape) Board() *rules.Board                    { return v.board }
func (v shape) Hidden() bool                           { return false }
func (v shape) Help() string                           { return "" }
func (v shape) New(rules.Options) (rules.State, error) { return shapeState{v}, nil }
func (v shape) Unmarshal([]byte) (rules.State, error)  { return shapeState{v}, nil }
func (s shapeState) Variant() rules.Variant            { return s.v }
func (s shapeState) Ruleset() string                   { return "standard" }
func (s shapeState) ToMove() rules.Side                { return rules.White }
func (s shapeState) Ply() int                          { return 0 }
func (s shapeState) Moves() []rules.Move               { return nil }
func (s shapeState) Outcome() rules.Outcome            { return rules.Outcome{} }
func (s shapeState) Format(rules.Move) string          { return "" }
func (s shapeState) Parse(string) (rules.Move, error)  { return rules.Move{}, errors.New("no moves") }
func (s shapeState) MarshalBinary() ([]byte, error)    { return nil, nil }
func (s shapeState) Check() error                      { return nil }
func (s shapeState) Apply(rules.Move) (rules.State, *rules.Report, error) {
	return nil, nil, errors.New("no moves")
}

type shapeState struct{ v shape }

func (s shapeState) View(viewer rules.Viewer) *rules.View {
	view := rules.NewView(s, viewer)
	for name, label := range s.v.labels {
		view.Cells[s.v.board.MustParse(name)] = label
	}
	view.Status = []string{fmt.Sprintf("%d squares.", s.v.board.Count())}
	view.Legend = []string{"Empty squares: . (\":\" havens or dark squares, \"o\" teleports and transporters)."}
	return view
}

// TestGoldenBoardShapes renders each of the six boards, with its corner
// squares labelled, as White and as Black see it.
func TestGoldenBoardShapes(t *testing.T) {
	shapes := []shape{
		{rules.ChessBoard, map[string]string{"a1": "A", "h1": "H", "a8": "a", "h8": "h"}},
		{rules.SeachessBoard, map[string]string{"c1": "C", "a3": "A", "l10": "l", "j12": "j"}},
		{rules.SubmachineBoard, map[string]string{"a1": "A", "k1": "K", "f6": "F", "k12": "k"}},
		{rules.BalticBoard, map[string]string{"a1": "G2", "h8": "g3"}},
		{rules.BattleBoard, map[string]string{"c1": "G", "a3": "S", "l10": "s", "j12": "g"}},
		{rules.TransporterBoard, map[string]string{"d1": "R", "a3": "F", "j8": "f", "g10": "r"}},
	}
	for _, sh := range shapes {
		for _, viewer := range []rules.Viewer{rules.ViewWhite, rules.ViewBlack} {
			name := sh.board.String() + "-" + viewer.String()
			t.Run(name, func(t *testing.T) {
				s, _ := sh.New(rules.Options{})
				rulestest.Golden(t, "boards/"+name+".txt", s.View(viewer).ASCII())
			})
		}
	}
}

func cands(forms ...[]string) []rules.Candidate {
	var out []rules.Candidate
	for i, f := range forms {
		out = append(out, rules.Candidate{Move: rules.Move{From: rules.Square(i), To: rules.Square(i)}, Forms: f})
	}
	return out
}

func TestMatch(t *testing.T) {
	// Index i of the candidate list is the move with From == To == i.
	list := cands(
		[]string{"Bxc3", "Bb2xc3"},
		[]string{"bxc3", "b2xc3"},
		[]string{"Nf3", "Ng1-f3", "g1f3"},
		[]string{"Nbd2", "Nb1-d2"},
		[]string{"Nfd2", "Nf3-d2"},
		[]string{"Ce5-M", "Ce5-M(h)"},
		[]string{"O-O"},
	)
	tests := []struct {
		in   string
		want int // candidate index, -1 for an error
		kind rules.ErrorKind
	}{
		{"Nf3", 2, 0},
		{" n f 3 ", 2, 0},
		{"ng1f3", 2, 0},
		{"Nf3+", 2, 0},
		{"Nf3!?", 2, 0},
		{"Bxc3", 0, 0},
		{"bxc3", 1, 0},
		{"BXC3", -1, rules.Ambiguous},
		{"bc3", -1, rules.Ambiguous},
		{"Nd2", -1, rules.Illegal},
		{"nbd2", 3, 0},
		{"Ce5 - M (h)", 5, 0},
		{"ce5m", 5, 0},
		{"o-o", 6, 0},
		{"Qh5", -1, rules.Illegal},
		{"", -1, rules.Unreadable},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := rules.Match(tt.in, list, nil)
			if tt.want >= 0 {
				if err != nil || m.From != rules.Square(tt.want) {
					t.Fatalf("Match(%q) = %+v, %v; want candidate %d", tt.in, m, err, tt.want)
				}
				return
			}
			var me *rules.MoveError
			if !errors.As(err, &me) || me.Kind != tt.kind {
				t.Fatalf("Match(%q) error = %v, want kind %v", tt.in, err, tt.kind)
			}
			if !strings.HasPrefix(err.Error(), "rules: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestMatchAmbiguousListsOptions(t *testing.T) {
	list := cands([]string{"Nbd2"}, []string{"Nfd2"})
	list[0].Forms = append(list[0].Forms, "Nd2")
	list[1].Forms = append(list[1].Forms, "Nd2")
	_, err := rules.Match("Nd2", list, nil)
	var me *rules.MoveError
	if !errors.As(err, &me) || me.Kind != rules.Ambiguous {
		t.Fatalf("want an ambiguity, got %v", err)
	}
	if !reflect.DeepEqual(me.Options, []string{"Nbd2", "Nfd2"}) {
		t.Errorf("options = %v", me.Options)
	}
	if want := `"Nd2": it could be Nbd2 or Nfd2; please write it in full`; me.Player() != want {
		t.Errorf("Player() = %q, want %q", me.Player(), want)
	}
}

func TestMatchDiagnoseAndNearest(t *testing.T) {
	list := cands([]string{"e4"}, []string{"e3"}, []string{"Nf3"}, []string{"a3"})
	diag := func(in string, _ []rules.Written) (rules.ErrorKind, lang.Text, string) {
		return rules.Illegal, lang.Raw("a pawn moves straight forward"), "FIDE 3.7"
	}
	_, err := rules.Match("e5", list, diag)
	var me *rules.MoveError
	if !errors.As(err, &me) {
		t.Fatal(err)
	}
	if me.Reason != "a pawn moves straight forward" || me.Ruling != "FIDE 3.7" {
		t.Errorf("diagnosis not used: %+v", me)
	}
	if len(me.Options) < 2 || me.Options[0] != "e3" || me.Options[1] != "e4" {
		t.Errorf("nearest = %v, want e3 and e4 first", me.Options)
	}
	if got, want := err.Error(), `rules: illegal move "e5": a pawn moves straight forward (FIDE 3.7)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestOutcome(t *testing.T) {
	sides := [2]string{"White", "Red"}
	tests := []struct {
		o            rules.Outcome
		result, text string
	}{
		{rules.Outcome{}, "*", "the game goes on"},
		{rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "checkmate", Ruling: "C5"}, "0-1", "Red wins: checkmate (C5)"},
		{rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "checkmate"}, "1-0", "White wins: checkmate"},
		{rules.Outcome{Status: rules.Draw, Reason: "stalemate", Ruling: "C5"}, "1/2-1/2", "drawn: stalemate (C5)"},
	}
	for _, tt := range tests {
		t.Run(tt.result+tt.text, func(t *testing.T) {
			if tt.o.Result() != tt.result || tt.o.Describe(sides) != tt.text {
				t.Errorf("got %s %q, want %s %q", tt.o.Result(), tt.o.Describe(sides), tt.result, tt.text)
			}
		})
	}
}

func TestParseViewer(t *testing.T) {
	for in, want := range map[string]rules.Viewer{"white": rules.ViewWhite, "black": rules.ViewBlack, "referee": rules.ViewReferee, "public": rules.ViewPublic, "Red": rules.ViewBlack} {
		if got, err := rules.ParseViewer(in, "White", "Red"); err != nil || got != want {
			t.Errorf("ParseViewer(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := rules.ParseViewer("green"); err == nil {
		t.Error("green accepted as a viewer")
	}
}

// BenchmarkASCII draws the text board of every chess mail: the start
// position as White sees it.
func BenchmarkASCII(b *testing.B) {
	v, err := variants.Lookup("chess")
	if err != nil {
		b.Fatal(err)
	}
	s, err := v.New(rules.Options{})
	if err != nil {
		b.Fatal(err)
	}
	view := s.View(rules.ViewWhite)
	b.ReportAllocs()
	for b.Loop() {
		_ = view.ASCII()
	}
}
