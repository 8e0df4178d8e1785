package chess

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// operaGame is Morphy v Duke Karl / Count Isouard, Paris 1858, the sample
// game of docs/variants/chess.md.
var operaGame = strings.Fields(`e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7
	Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7
	Qb8+ Nxb8 Rd8#`)

// operaPGN plays the game move by move through Parse and Apply, taking the
// SAN from the reports.
func operaRecord(t *testing.T) ([]rules.PGNMove, rules.State) {
	t.Helper()
	s, _ := Variant.New(rules.Options{})
	var moves []rules.PGNMove
	for _, text := range operaGame {
		m, err := s.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		var rep *rules.Report
		s, rep, err = s.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Text != text || rep.Record[rules.ViewReferee] != text {
			t.Errorf("%s recorded as %q / %q", text, rep.Text, rep.Record[rules.ViewReferee])
		}
		moves = append(moves, rules.PGNMove{Text: rep.Text})
	}
	return moves, s
}

func TestSampleGameOpera(t *testing.T) {
	_, s := operaRecord(t)
	o := s.Outcome()
	if o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" {
		t.Fatalf("outcome %+v", o)
	}
	if got := s.(*State).FEN(); got != "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17" {
		t.Errorf("final position %s", got)
	}
}

func TestPGNOperaGolden(t *testing.T) {
	moves, s := operaRecord(t)
	moves[22].Comment = "Castling long brings the rook to the d-file at once."
	moves[32].Comment = "The rook mates, covered by the bishop on g5."
	tags := []rules.Tag{
		{Name: "Black", Value: "Duke Karl / Count Isouard"}, {Name: "White", Value: "Paul Morphy"}, {Name: "Event", Value: "Paris"},
		{Name: "Date", Value: "1858.??.??"}, {Name: "Site", Value: "Paris FRA"}, {Name: "Round", Value: "?"}, {Name: "Annotator", Value: "bottlepost"},
	}
	var b bytes.Buffer
	if err := rules.WritePGN(&b, tags, moves, s.Outcome().Result()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if len(line) > rules.MaxPGNLine {
			t.Errorf("line of %d characters: %s", len(line), line)
		}
	}
	rulestest.Golden(t, "opera.pgn", b.String())
}

func TestPGNNumberingAndWrapping(t *testing.T) {
	var moves []rules.PGNMove
	for i := range 30 {
		moves = append(moves, rules.PGNMove{Text: fmt.Sprintf("M%d", i)})
	}
	moves[0].Comment = "a comment with } a brace and\na newline"
	moves[3].Comment = strings.Repeat("word ", 30)
	tags := []rules.Tag{{Name: "FEN", Value: "4k3/8/8/8/8/8/8/4K3 b - - 0 12"}, {Name: "SetUp", Value: "1"}, {Name: "Variant", Value: "Seachess"}}
	var b bytes.Buffer
	if err := rules.WritePGN(&b, tags, moves, "*"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 12\"]\n[SetUp \"1\"]\n[Variant \"Seachess\"]\n\n",
		"12... M0 {a comment with ) a brace and a newline} 13. M1 M2 14. M3 {word",
		"word} 14... M4 15. M5",
		"26. M27 M28 27. M29 *\n\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > rules.MaxPGNLine {
			t.Errorf("line of %d characters: %s", len(line), line)
		}
	}
	for _, bad := range []struct {
		tags   []rules.Tag
		result string
	}{
		{nil, "2-0"},
		{[]rules.Tag{{Name: "Bad Name", Value: "x"}}, "*"},
		{[]rules.Tag{{Name: "Event", Value: "a"}, {Name: "Event", Value: "b"}}, "*"},
	} {
		if err := rules.WritePGN(&b, bad.tags, moves, bad.result); err == nil {
			t.Errorf("%v %q accepted", bad.tags, bad.result)
		}
	}
	b.Reset()
	rules.WritePGN(&b, []rules.Tag{{Name: "White", Value: `A "quoted" \ name`}}, nil, "1/2-1/2")
	if !strings.Contains(b.String(), `[White "A \"quoted\" \\ name"]`) || !strings.HasSuffix(b.String(), "\n1/2-1/2\n\n") {
		t.Errorf("escaping or empty game:\n%s", b.String())
	}
}

func TestViewGolden(t *testing.T) {
	start, _ := Variant.New(rules.Options{})
	mid := play(t, mustFEN(t, StartFEN), operaGame[:24]...)
	check := play(t, mustFEN(t, StartFEN), operaGame[:21]...)
	for _, c := range []struct {
		name string
		s    rules.State
	}{{"start", start}, {"middlegame", mid}, {"check", check}} {
		for v := range rules.NumViewers {
			rulestest.Golden(t, fmt.Sprintf("board_%s_%s.txt", c.name, v), c.s.View(v).ASCII())
		}
	}
	// Nothing is hidden: every viewer sees the same cells.
	for v := range rules.NumViewers {
		if fmt.Sprint(mid.View(v).Cells) != fmt.Sprint(mid.View(rules.ViewReferee).Cells) {
			t.Errorf("%v sees other cells", v)
		}
	}
}

func TestHelp(t *testing.T) {
	lines := strings.Split(strings.TrimRight(Variant.Help(), "\n"), "\n")
	if len(lines) > 40 {
		t.Errorf("help has %d lines", len(lines))
	}
	for _, l := range lines {
		if len([]rune(l)) > 72 {
			t.Errorf("help line over 72 characters: %q", l)
		}
	}
}
