package game

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// updateMail starts a game of the variant (alice White, bob Black) and has
// the first mover play its first legal move; it returns the mail that
// tells the other player, board included.
func updateMail(t *testing.T, f *fixture, variant string) *sent {
	t.Helper()
	pa := f.personal(alice)
	f.send(alice, pa, "new", "new "+variant+" vs "+bob+" as white")
	f.reply(bob, "accept")
	var l *loaded
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		l, err = load(tx, 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	mover, other := alice, bob
	if l.state.ToMove() != 0 {
		mover, other = bob, alice
	}
	// The first visible move in the order of its text: the same every run,
	// and one the opponent sees (a hidden move is highlighted for no one
	// but its author).
	var texts []string
	for _, m := range l.state.Moves() {
		if _, rep, err := l.state.Apply(m); err == nil && !rep.Secret {
			texts = append(texts, l.state.Format(m))
		}
	}
	sort.Strings(texts)
	f.reply(mover, texts[0])
	return f.last(other)
}

// TestHTMLMailGoldens keeps the HTML part of each variant's update mail
// under testdata/html/VARIANT.html (go test -update rewrites them): the
// board as a table with inline styles only, no <style>, no script, no SVG,
// no images.
func TestHTMLMailGoldens(t *testing.T) {
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			f := newFixture(t, Config{})
			m := updateMail(t, f, v.ID())
			for _, bad := range []string{"<style", "<script", "<svg", "<img", "<pre"} {
				if strings.Contains(strings.ToLower(m.HTML), bad) {
					t.Errorf("the HTML part has %s", bad)
				}
			}
			if !strings.Contains(m.HTML, "<table") || !strings.Contains(m.HTML, htmlboard.Colours.Dark) {
				t.Errorf("the HTML part has no board table")
			}
			path := filepath.Join("testdata", "html", v.ID()+".html")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(m.HTML), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if string(want) != m.HTML {
				t.Errorf("%s differs from the HTML part (go test -update rewrites it)", path)
			}
		})
	}
}

// TestHTMLMailScreenshots opens each variant's update mail, the HTML part
// as sent, in headless Chromium and checks the picture: its size, and the
// light and dark squares (and the highlighted last move, and Seachess's
// sea) each covering several squares' worth of pixels. Set
// BOTTLEPOST_SCREENSHOTS=DIR to keep the pictures.
func TestHTMLMailScreenshots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	chromiumtest.Require(t)
	keep := os.Getenv("BOTTLEPOST_SCREENSHOTS")
	const w, h = 800, 1100
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			f := newFixture(t, Config{})
			m := updateMail(t, f, v.ID())
			page := filepath.Join(t.TempDir(), v.ID()+".html")
			if err := os.WriteFile(page, []byte(m.HTML), 0o644); err != nil {
				t.Fatal(err)
			}
			shot := chromiumtest.Screenshot(t, page, w, h)
			colours := []string{htmlboard.Colours.Light, htmlboard.Colours.Dark}
			if v.ID() == "seachess" {
				colours = []string{htmlboard.Colours.SeaLight, htmlboard.Colours.SeaDark}
			}
			if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: w, Height: h, Colours: colours, MinPixels: 4 * 30 * 30}); err != nil {
				t.Error(err)
			}
			// The last move is highlighted (two squares at least: from and to).
			last := []string{htmlboard.Colours.LastLight, htmlboard.Colours.LastDark}
			if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: w, Height: h, Colours: last[:1], MinPixels: 20 * 20}); err != nil {
				if _, err2 := chromiumtest.Verify(shot, chromiumtest.Check{Width: w, Height: h, Colours: last[1:], MinPixels: 20 * 20}); err2 != nil {
					t.Errorf("no highlighted last move: %v; %v", err, err2)
				}
			}
			if keep != "" {
				if err := os.WriteFile(filepath.Join(keep, "mail-"+v.ID()+".png"), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
