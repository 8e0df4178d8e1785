package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// TestScreenshots serves a club with a game in play of every variant, a
// finished Seachess game (rated), a variant's rules, the front page and the
// Seachess leaderboard, and looks at each page in
// headless Chromium: the picture has the window's size, is not blank, and
// shows the board's light and dark squares (Seachess: its sea too). Set
// BOTTLEPOST_SCREENSHOTS=DIR to keep the pictures (docs/web holds them).
func TestScreenshots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	chromiumtest.Require(t)
	c := newClub(t)
	type shot struct {
		name, path string
		colours    []string
	}
	board := []string{htmlboard.Colours.Light, htmlboard.Colours.Dark}
	sea := append([]string{htmlboard.Colours.SeaLight, htmlboard.Colours.SeaDark}, board...)
	var shots []shot
	id := uint64(0)
	for _, v := range variants.All() {
		id++
		c.start(v.ID(), alice, bob)
		c.randomGame(id, v.ID(), alice, bob, 12, rand.New(rand.NewPCG(id, 9)))
		colours := board
		if v.ID() == "seachess" {
			colours = sea
		}
		shots = append(shots, shot{"game-" + v.ID(), fmt.Sprintf("/games/%d", id), colours})
	}
	id++
	c.start("seachess", carol, alice)
	for i, m := range seachessOpening {
		c.move(id, []string{carol, alice}[i%2], m)
	}
	c.move0(id, alice, "resign")
	shots = append(shots, shot{"finished-seachess", fmt.Sprintf("/games/%d", id), sea},
		shot{"variant-battle", "/variants/battle", board},
		shot{"index", "/", nil},
		shot{"ratings-seachess", "/ratings/seachess", nil})
	srv := httptest.NewServer(c.srv)
	defer srv.Close()
	keep := os.Getenv("BOTTLEPOST_SCREENSHOTS")
	const w, h = 1000, 820
	for _, s := range shots {
		t.Run(s.name, func(t *testing.T) {
			png := chromiumtest.Screenshot(t, srv.URL+s.path, w, h)
			if _, err := chromiumtest.Verify(png, chromiumtest.Check{Width: w, Height: h, Colours: s.colours, MinPixels: 3 * 30 * 30}); err != nil {
				t.Error(err)
			}
			if keep != "" {
				small, err := chromiumtest.Small(png)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(keep, s.name+".png"), small, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
