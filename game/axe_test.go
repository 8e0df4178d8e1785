package game

import (
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/axetest"
)

// firstVisibleMove is the first legal move, in the order of its text, of
// game 1 that the opponent sees (not a secret one): the same every run.
func firstVisibleMove(t *testing.T, f *fixture) string {
	t.Helper()
	l := f.loadGame(1)
	var texts []string
	for _, m := range l.state.Moves() {
		if _, rep, err := l.state.Apply(m); err == nil && !rep.Secret {
			texts = append(texts, l.state.Format(m))
		}
	}
	sort.Strings(texts)
	return texts[0]
}

// mailKinds plays TestGoldenMails's scenario in a game of the variant and
// returns the HTML part of every kind of mail it sends, by kind.
func mailKinds(t *testing.T, variant string) map[string]string {
	f := newFixture(t, Config{Referees: []string{ref}})
	out := map[string]string{}
	keep := func(kind, addr string) { out[kind] = f.last(addr).HTML }
	f.send(alice, "games@bottlepost.test", "hello", "hi there")
	keep("welcome", alice)
	pa := f.last(alice).ReplyTo
	f.send(alice, pa, "help", "help")
	keep("help", alice)
	f.send(alice, pa, "help", "help "+variant)
	keep("help-variant", alice)
	f.send(alice, pa, "new", "new "+variant+" vs "+bob+" as white time 10/50d+2d")
	keep("challenge", alice)
	keep("invitation", bob)
	f.reply(bob, "accept")
	keep("started", bob)
	// The first mover (Black in Transporter, T1.2) moves; the other hears.
	mover, other := alice, bob
	if f.last(alice).Subject == f.last(bob).Subject || variant == "transporter" {
		mover, other = bob, alice
	}
	f.reply(mover, firstVisibleMove(t, f))
	keep("receipt", mover)
	keep("opponent-moved", other)
	f.reply(other, "zz99", "by the way, nice opening")
	keep("illegal-move", other)
	f.reply(other, "history")
	keep("history", other)
	f.send(alice, pa, "games", "games")
	keep("games", alice)
	pr := f.personal(ref)
	f.send(ref, pr, "audit", "audit 1")
	keep("audit", ref)
	f.reply(other, "resign")
	keep("final", mover)
	f.send(ref, pr, "adj", "adjudicate 1 1-0 too late")
	keep("notice", ref)
	return out
}

var variantsToCheck = []string{"chess", "seachess", "submachine", "baltic", "battle", "transporter"}

// TestMailsAccessible runs axe-core in headless Chromium on the HTML part
// of every kind of mail, in a game of every variant (a mail without a
// board, the same template with other words, in chess only): none may
// have a serious or critical violation (issue 34). One browser checks
// them all.
func TestMailsAccessible(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	b := axetest.Start(t)
	seen := map[string]bool{}
	for _, v := range variantsToCheck {
		kinds := mailKinds(t, v)
		for _, format := range []string{boardList, boardBoth} {
			// The news of a move to a player reading the board as a
			// list, or both (board format, issue 34).
			f, _, other, _ := boardFormatGame(t, v, format)
			kinds["opponent-moved-"+format] = f.last(other).HTML
		}
		// The same in German (language de): the news, the receipt and a
		// refusal, with the board as diagram and list.
		f, mover, other := germanGame(t, v, boardBoth)
		kinds["de-opponent-moved-both"], kinds["de-receipt"] = f.last(other).HTML, f.last(mover).HTML
		names := make([]string, 0, len(kinds))
		for k := range kinds {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, kind := range names {
			html := kinds[kind]
			if seen[html] || (v != "chess" && !strings.Contains(html, "<caption") && !strings.Contains(html, "<li>")) {
				// A mail without a board is the same template in every
				// variant, with other words: chess's are checked.
				continue
			}
			seen[html] = true
			t.Run(v+"/"+kind, func(t *testing.T) {
				if html == "" {
					t.Fatal("no HTML part")
				}
				vs := b.CheckHTML(t, v+"-"+kind, html)
				t.Logf("%s", axetest.Summary(vs))
				for _, x := range vs {
					if x.Serious() {
						t.Error(x)
					} else if testing.Verbose() {
						t.Log(x)
					}
				}
			})
		}
	}
}
