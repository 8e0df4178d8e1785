package axetest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/axetest"
)

// TestVersionPinnedInCI keeps the axe-core that .ci/run installs the one
// the checks look for.
func TestVersionPinnedInCI(t *testing.T) {
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ci), "axe-core@"+axetest.Version) {
		t.Errorf(".ci/run does not install axe-core@%s", axetest.Version)
	}
}

// TestCheck runs axe in headless Chromium on a page with known faults (no
// language, an image without a text, grey on grey, a form field without
// a label) and on one without them: the first has those serious
// violations, the second none.
func TestCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	b := axetest.Start(t)
	bad := `<!DOCTYPE html><html><head><title>bad</title></head><body><main><h1>Bad</h1>
<img src="x.png"><p style="color:#999;background:#aaa">faint</p><input type="text"></main></body></html>`
	good := `<!DOCTYPE html><html lang="en"><head><title>good</title></head><body><main><h1>Good</h1>
<img src="x.png" alt="a board"><p style="color:#333;background:#fff">plain</p>
<label>Name <input type="text"></label></main></body></html>`
	got := map[string]bool{}
	for _, v := range axetest.Serious(b.CheckHTML(t, "bad", bad)) {
		got[v.ID] = true
	}
	for _, want := range []string{"html-has-lang", "image-alt", "color-contrast", "label"} {
		if !got[want] {
			t.Errorf("the bad page has no %s violation (got %v)", want, got)
		}
	}
	if vs := b.CheckHTML(t, "good", good); len(axetest.Serious(vs)) > 0 {
		for _, v := range vs {
			t.Error(v)
		}
	}
}
