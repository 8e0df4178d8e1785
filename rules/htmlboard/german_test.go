package htmlboard_test

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/rulestest"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// TestGoldenBoardsGerman draws a position of every variant in German, as
// White sees it (Seachess also as the referee, its hidden pieces marked):
// the HTML board (de-ID-VIEWER.html) and the text board with the piece
// list below it (de-ID-VIEWER.txt). The block carries lang="de", the
// caption and the squares' names are German, and no word is missing from
// the German catalog. The English goldens (TestGoldenBoards) stay as they
// are: English is the default.
func TestGoldenBoardsGerman(t *testing.T) {
	words := rules.WordsIn(lang.German)
	for _, v := range variants.All() {
		plies := 14
		if v.ID() == "baltic" {
			plies = 24 // stacks form
		}
		s, rep := play(t, v.ID(), plies, 7, v.ID() == "seachess")
		viewers := []rules.Viewer{rules.ViewWhite}
		if v.Hidden() {
			viewers = append(viewers, rules.ViewReferee)
		}
		for _, viewer := range viewers {
			name := "de-" + v.ID() + "-" + viewer.String()
			t.Run(name, func(t *testing.T) {
				view := s.View(viewer)
				got := string(htmlboard.Render(view, htmlboard.Options{Last: htmlboard.LastMove(rep, v.Board(), viewer), Lang: lang.German}))
				checkWellFormed(t, got)
				if !strings.HasPrefix(got, `<div lang="de" `) {
					t.Errorf("the block has no lang attribute: %.80s", got)
				}
				title := view.TitleIn(words)
				if !strings.Contains(title, "Sicht") && !strings.Contains(title, "Schiedsrichter") {
					t.Errorf("title %q is not German", title)
				}
				if !strings.Contains(got, ">"+title+"</caption>") {
					t.Errorf("the caption is not %q", title)
				}
				for _, english := range []string{"as White sees it", "to move.", `, white `, `, black `} {
					if strings.Contains(got, english) {
						t.Errorf("the German board says %q", english)
					}
				}
				rulestest.Golden(t, name+".html", page(got))
				text := view.ASCIIIn(words) + "\n" + view.List(words)
				// The list wraps its lines (the view's status lines, still
				// English, are the variant's own).
				for _, line := range view.ListLines(words) {
					if n := len([]rune(line)); n > 78 {
						t.Errorf("line of %d columns: %q", n, line)
					}
				}
				rulestest.Golden(t, name+".txt", text)
			})
		}
	}
	if m := lang.Missed(); len(m) > 0 {
		t.Errorf("words missing from the German catalog: %q", m)
	}
}

// TestEnglishIsTheDefault: no language, or English, draws the board as the
// web pages always had it, without a lang attribute.
func TestEnglishIsTheDefault(t *testing.T) {
	s, _ := play(t, "chess", 4, 7, false)
	view := s.View(rules.ViewWhite)
	def := htmlboard.Render(view, htmlboard.Options{})
	en := htmlboard.Render(view, htmlboard.Options{Lang: lang.English})
	if def != en {
		t.Error("Lang: English draws another board than the default")
	}
	if strings.Contains(string(def), "lang=") || !strings.Contains(string(def), "Chess, as White sees it") {
		t.Errorf("the default board is not English: %.200s", def)
	}
	if view.ASCIIIn(nil) != view.ASCII() || view.ASCIIIn(rules.WordsIn(lang.English)) != view.ASCII() {
		t.Error("ASCIIIn(English) is not ASCII")
	}
}
