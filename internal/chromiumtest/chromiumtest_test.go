package chromiumtest_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
)

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestVerify checks the picture checks on pictures made here.
func TestVerify(t *testing.T) {
	blank := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range blank.Pix {
		blank.Pix[i] = 0xff
	}
	halves := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for y := range 30 {
		for x := range 40 {
			c := color.RGBA{0xf0, 0xd9, 0xb5, 0xff}
			if x >= 20 {
				c = color.RGBA{0xb5, 0x88, 0x63, 0xff}
			}
			halves.Set(x, y, c)
		}
	}
	tests := []struct {
		name    string
		img     image.Image
		check   chromiumtest.Check
		wantErr string
	}{
		{"both colours", halves, chromiumtest.Check{Width: 40, Height: 30, Colours: []string{"#f0d9b5", "#b58863"}, MinPixels: 600}, ""},
		{"near enough", halves, chromiumtest.Check{Colours: []string{"#f2d7b5"}, Tolerance: 2}, ""},
		{"wrong size", halves, chromiumtest.Check{Width: 41}, "is 40x30"},
		{"too few pixels", halves, chromiumtest.Check{Colours: []string{"#b58863"}, MinPixels: 601}, "600 pixels"},
		{"absent colour", halves, chromiumtest.Check{Colours: []string{"#000000"}}, "#000000"},
		{"blank page", blank, chromiumtest.Check{}, "blank"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := chromiumtest.Verify(encode(t, tc.img), tc.check)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
	if _, err := chromiumtest.Verify([]byte("not a png"), chromiumtest.Check{}); err == nil {
		t.Error("a non-PNG passed")
	}
}

// TestScreenshot takes a real screenshot of a page with two coloured
// blocks in headless Chromium.
func TestScreenshot(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	chromiumtest.Require(t)
	page := filepath.Join(t.TempDir(), "two.html")
	html := `<!DOCTYPE html><body style="margin:0;background:#ffffff"><div style="width:100px;height:50px;background:#f0d9b5"></div><div style="width:100px;height:50px;background:#b58863"></div></body>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := chromiumtest.Screenshot(t, page, 320, 200)
	if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: 320, Height: 200,
		Colours: []string{"#f0d9b5", "#b58863"}, MinPixels: 4500}); err != nil {
		t.Fatal(err)
	}
}
