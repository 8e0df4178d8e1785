package htmlboard_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// TestScreenshots opens the golden board of every variant, as White sees
// it, in headless Chromium and checks the picture: its size, and the light
// and dark squares (Seachess: the sea's too) each covering at least a few
// squares' worth of pixels. Set BOTTLEPOST_SCREENSHOTS=DIR to keep the
// pictures.
func TestScreenshots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	chromiumtest.Require(t)
	keep := os.Getenv("BOTTLEPOST_SCREENSHOTS")
	const w, h = 700, 900
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			shot := chromiumtest.Screenshot(t, filepath.Join("testdata", v.ID()+"-white.html"), w, h)
			colours := []string{htmlboard.Colours.Light, htmlboard.Colours.Dark}
			if v.ID() == "seachess" {
				colours = append(colours, htmlboard.Colours.SeaLight, htmlboard.Colours.SeaDark)
			}
			if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: w, Height: h, Colours: colours, MinPixels: 4 * 30 * 30}); err != nil {
				t.Error(err)
			}
			if keep != "" {
				if err := os.WriteFile(filepath.Join(keep, "board-"+v.ID()+".png"), shot, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
