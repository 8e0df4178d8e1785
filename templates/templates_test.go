package templates

import (
	"html/template"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
)

// kinds lists every kind of mail, each with a .txt and a .html template.
var kinds = []string{"welcome", "help", "invitation", "challenge", "update", "history", "final", "games", "ratings", "audit", "notice", "tournament"}

// data has every field any template uses, so each kind executes fully.
type gameInfo struct {
	Tag, Variant, White, Black, Time string
	Sides                            [2]string
}

type data struct {
	Lang                                                                                lang.Lang
	Subject, Address, Receipt, Attachment, Board, Turn, Deadline, Personal, VariantHelp string
	From, YourSide, Result, Reason, FirstMover, Moves                                   string
	Newcomer, Over, NoHead, NoFoot, Hidden                                              bool
	BoardHTML                                                                           template.HTML
	Game                                                                                *gameInfo
	Notices, Errors, Ignored, Commitments, Variants, Record, Openings, Held             []string
	Games, Report, Ratings                                                              []string
	Tables                                                                              []table
	Standing                                                                            string
	Said                                                                                []said
}

// said is an opponent's words (game's saidText).
type said struct {
	From  string
	Lines []string
}

// table is a pool of the ratings command's answer (game's ratingTable).
type table struct {
	Title, Yours string
	Rows         []row
}

type row struct {
	Rank               int
	Name, Rating, Line string
	RD, Games          int
	You                bool
}

func TestEveryKindHasBothParts(t *testing.T) {
	d := data{Subject: "s", Moves: "1. e4 <m>", Address: "games@localhost", Receipt: "3:00ff", Board: "<board & co>", Turn: "Your move.",
		Game:    &gameInfo{Tag: "bp-1<tag>", Variant: "Chess", White: "a@x", Black: "b@y", Time: "3 days per move", Sides: [2]string{"White", "Black"}},
		Notices: []string{"note <1>"}, Record: []string{"1. e4"}, Variants: []string{"chess"},
		Ratings: []string{"Your rating: 1500? → 1662? (+162) <r>"},
		Tables:  []table{{Title: "Chess: 1 rated player.", Yours: "Your Chess rating: 1662? <y>", Rows: []row{{Rank: 1, Name: "<Alice>", Rating: "1662?", Line: "1. Alice"}}}},
		Said:    []said{{From: "Bob", Lines: []string{"<script>alert(1)</script>", "line two"}}}}
	for _, l := range lang.All {
		d.Lang = l
		for _, kind := range kinds {
			t.Run(string(l)+"/"+kind, func(t *testing.T) {
				var txt, html strings.Builder
				if err := Text(l).ExecuteTemplate(&txt, kind+".txt", d); err != nil {
					t.Fatalf("text: %v", err)
				}
				if err := HTML(l).ExecuteTemplate(&html, kind+".html", d); err != nil {
					t.Fatalf("html: %v", err)
				}
				// Words from an opponent come in every mail that shows the notices
				// (not in an invitation: a stranger's words never go to anyone).
				says := l.Tr("%s says:", "Bob")
				if kind != "invitation" && (!strings.Contains(txt.String(), says+"\n  <script>alert(1)</script>\n  line two\n") || !strings.Contains(html.String(), says)) {
					t.Errorf("the opponent's words are missing:\n%s\n%s", txt.String(), html.String())
				}
				if !strings.Contains(txt.String(), "games@localhost") || !strings.Contains(html.String(), "games@localhost") {
					t.Errorf("footer missing")
				}
				if h := html.String(); strings.Contains(h, "<board & co>") || strings.Contains(h, "note <1>") || strings.Contains(h, "<r>") || strings.Contains(h, "<Alice>") || strings.Contains(h, "<script>") || strings.Contains(h, "<m>") || strings.Contains(h, "<tag>") {
					t.Errorf("HTML part does not escape its data:\n%s", html.String())
				}
				if h := html.String(); !strings.Contains(h, `<html lang="`+string(l)+`">`) {
					t.Errorf("HTML part does not name its language %s:\n%s", l, h)
				}
			})
		}
	}
	// Every message the templates wrote is in every catalog.
	if m := lang.Missed(); len(m) > 0 {
		t.Errorf("messages missing from a catalog: %q", m)
	}
}
