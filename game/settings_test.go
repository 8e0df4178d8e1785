package game

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/rules"
)

// viewOf is game 1's board as viewer sees it now.
func viewOf(t *testing.T, f *fixture, viewer rules.Viewer) *rules.View {
	t.Helper()
	return f.loadGame(1).state.View(viewer)
}

// within78 fails for a line of a mail's text part wider than 78 columns.
func within78(t *testing.T, name string, m *sent) {
	t.Helper()
	for _, line := range strings.Split(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > 78 {
			t.Errorf("%s: a line of %d columns:\n%s", name, n, line)
		}
	}
}

// boardFormatGame starts a game of the variant in which the player who
// does not move first (other, seeing as viewer) reads the boards in the
// board format format, and the first mover (mover) plays its first move.
func boardFormatGame(t *testing.T, variant, format string) (f *fixture, mover, other string, viewer rules.Viewer) {
	t.Helper()
	f = newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice Liddell", bob: "Bob Smith"}
	f.send(alice, f.personal(alice), "new", "new "+variant+" vs "+bob+" as white")
	f.reply(bob, "accept")
	mover, other, viewer = alice, bob, rules.ViewBlack
	if variant == "transporter" { // Black moves first (T1.2)
		mover, other, viewer = bob, alice, rules.ViewWhite
	}
	f.reply(other, "board format "+format)
	f.mustContain(f.last(other), "Your board format is now "+format)
	f.reply(mover, firstVisibleMove(t, f))
	return f, mover, other, viewer
}

// TestBoardFormat: in every variant, a player's board format decides how
// the news of the opponent's move and the answer to board draw the board
// (golden mails for list and both), every line within 78 columns; the
// opponent, who kept the diagram, gets the diagram.
func TestBoardFormat(t *testing.T) {
	for _, variant := range variantsToCheck {
		for _, format := range []string{boardList, boardBoth, boardDiagram} {
			t.Run(variant+"/"+format, func(t *testing.T) {
				f, mover, other, viewer := boardFormatGame(t, variant, format)
				news := f.last(other)
				if format != boardDiagram {
					golden(t, "format-"+variant+"-"+format, news)
				}
				within78(t, "news", news)
				f.reply(other, "board")
				answer := f.last(other)
				within78(t, "board", answer)
				view := viewOf(t, f, viewer)
				// The diagram's title and grid (its status lines may be wrapped).
				list, diagram := view.List(nil), strings.Join(strings.SplitN(view.ASCII(), "\n\n", 3)[:2], "\n\n")
				lines := strings.Join(view.ListLines(nil), "\n")
				wantList, wantDiagram := format != boardDiagram, format != boardList
				for _, c := range []struct {
					what string
					in   string
					want bool
				}{
					{"the list", lines, wantList}, {"the diagram", diagram, wantDiagram},
					{"the whole list", list, format == boardList},
				} {
					if strings.Contains(strings.ReplaceAll(answer.Text, "\r\n", "\n"), c.in) != c.want {
						t.Errorf("board answers with %s: %v, want %v:\n%s", c.what, !c.want, c.want, answer.Text)
					}
				}
				if strings.Contains(answer.HTML, "<li>") != wantList || strings.Contains(answer.HTML, "<table") != wantDiagram {
					t.Errorf("the HTML part of board in format %s:\n%s", format, answer.HTML)
				}
				// The mover kept the diagram.
				if m := f.last(mover); strings.Contains(m.Text, "(you): ") || !strings.Contains(m.HTML, "<table") {
					t.Errorf("the mover's mail follows the opponent's board format:\n%s", m.Text)
				}
			})
		}
	}
}

// TestSettingsCommands: bad settings are refused with what to write and
// change nothing; settings lists every setting with its command, before
// and after each is changed.
func TestSettingsCommands(t *testing.T) {
	f := newFixture(t, Config{VacationDays: 30})
	f.names = map[string]string{alice: "Alice Liddell"}
	pa := f.personal(alice)
	f.send(alice, pa, "settings", "settings")
	f.mustContain(f.last(alice), "Your settings, each with the command that changes it:",
		"Name: none chosen (shown as Alice Liddell). Change: name NAME, or name off.",
		"Board format: diagram. Change: board format diagram, list or both.",
		"Notation: algebraic. Change: notation iccf or notation algebraic.",
		"Messages from opponents: on. Change: messages off or messages on.",
		"Time zone: UTC. Change: timezone ZONE",
		"Vacation: 30 days left this year (of 30). Take some: vacation N days.",
		"Daily digest: off. Change: digest HOUR, digest CRON or digest off.")
	for _, c := range []struct{ line, want string }{
		{"board format tiles", "tiles is no board format: write board format diagram, list or both"},
		{"board format", "write board format diagram (the drawn board), board format list"},
		{"notation descriptive", "write notation iccf"},
		{"settings all", "settings takes no arguments"},
	} {
		f.send(alice, pa, "bad", c.line)
		f.mustContain(f.last(alice), c.want)
	}
	f.send(alice, pa, "settings", "settings")
	f.mustContain(f.last(alice), "Board format: diagram.", "Notation: algebraic.")
	f.send(alice, pa, "set", "name Alice L", "board format both", "notation iccf", "messages off",
		"timezone Europe/Berlin", "vacation 3 days", "digest 8", "settings")
	f.mustContain(f.last(alice), "Your chess mails now show each move in ICCF numeric notation too",
		"Name: Alice L.", "Board format: both.", "Notation: iccf (chess only).", "Messages from opponents: off.",
		"Time zone: Europe/Berlin.", "Vacation: 27 days left this year (of 30), on vacation until",
		"Daily digest: \"CRON_TZ=Europe/Berlin")
	f.send(alice, pa, "set", "board format diagram", "notation algebraic", "settings")
	f.mustContain(f.last(alice), "Board format: diagram.", "Notation: algebraic.", "algebraic notation only")
	f.send(alice, pa, "help", "help settings")
	f.mustContain(f.last(alice), "Lists your settings and the command that changes each")
	for _, cmd := range []string{"board", "notation"} {
		f.send(alice, pa, "help", "help "+cmd)
		if got := f.last(alice).Subject; got != "bottlepost: help "+cmd {
			t.Errorf("help %s answers %q", cmd, got)
		}
	}
}

// iccfNumber is a move in ICCF numeric notation as a mail shows it.
var iccfNumber = regexp.MustCompile(`\(\d{4,5}\)`)

// TestNotationICCF: a chess player with notation iccf reads the moves in
// ICCF numeric notation beside algebraic in the news of a move, their own
// receipt and the last moves; the opponent and the record stay algebraic;
// another variant is not changed.
func TestNotationICCF(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
	f.reply(bob, "accept")
	f.reply(bob, "notation iccf")
	f.reply(alice, "e4")
	f.mustContain(f.last(bob), "White played 1. e4 (5254).", "Last moves: 1. e4 (5254)")
	if m := f.last(alice); iccfNumber.MatchString(m.Text) {
		t.Errorf("the algebraic player's receipt shows ICCF:\n%s", m.Text)
	}
	f.reply(bob, "Nf6")
	f.mustContain(f.last(bob), "Your move Nf6 (7866) was accepted.", "Last moves: 1. e4 (5254) Nf6 (7866)")
	f.mustContain(f.last(alice), "Black played 1... Nf6.", "Last moves: 1. e4 Nf6")
	f.reply(alice, "5171") // not castling: ICCF input, a king's move that is not legal
	f.reply(alice, "Nf3")
	f.mustContain(f.last(bob), "White played 2. Nf3 (7163).")
	f.reply(bob, "history")
	if m := f.last(bob); !strings.Contains(m.Text, "1. e4 Nf6") || strings.Contains(m.Text, "(5254)") {
		t.Errorf("the record is not algebraic:\n%s", m.Text)
	}
	// Another variant: no ICCF, and the setting changes none of its mails.
	g := newFixture(t, Config{})
	g.send(alice, g.personal(alice), "new", "new baltic vs "+bob+" as white")
	g.reply(bob, "accept")
	g.reply(bob, "notation iccf")
	g.mustContain(g.last(bob), "ICCF notation exists for chess only")
	g.reply(alice, firstVisibleMove(t, g))
	if m := g.last(bob); !strings.Contains(m.Text, "White played 1. ") || iccfNumber.MatchString(m.Text) {
		t.Errorf("a Baltic move is shown with ICCF:\n%s", m.Text)
	}
}
