// Package chromiumtest runs Debian's headless Chromium for tests: it takes
// a screenshot of an HTML file or a URL and checks the picture (its size,
// and that given colours, such as a board's light and dark squares, are
// there). The HTML mail tests and the web view tests use it. A test that
// needs Chromium is skipped, saying why, where it cannot be found; set
// BOTTLEPOST_NEED_CHROMIUM=1 to make that a failure instead.
package chromiumtest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// candidates are where Chromium is looked for, after $BOTTLEPOST_CHROMIUM.
var candidates = []string{"chromium", "/usr/bin/chromium", "chromium-browser", "google-chrome"}

// Path returns the Chromium binary: $BOTTLEPOST_CHROMIUM when set, else
// Debian's chromium (or a chromium-browser or google-chrome) on the PATH.
func Path() (string, error) {
	if p := os.Getenv("BOTTLEPOST_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("chromiumtest: BOTTLEPOST_CHROMIUM=%s: %w", p, err)
		}
		return p, nil
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromiumtest: chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)")
}

// Require returns the Chromium binary or skips the test saying why (fails
// it under BOTTLEPOST_NEED_CHROMIUM=1).
func Require(t testing.TB) string {
	t.Helper()
	p, err := Path()
	if err != nil {
		if os.Getenv("BOTTLEPOST_NEED_CHROMIUM") == "1" {
			t.Fatal(err)
		}
		t.Skip(err.Error())
	}
	return p
}

// one runs one Chromium at a time: each takes most of a core while it
// starts, and the tests share the machine.
var one sync.Mutex

// Timeout bounds one screenshot, Chromium's start included.
var Timeout = 90 * time.Second

// Screenshot loads target (a URL, or the path of an HTML file) in headless
// Chromium with a window of width × height CSS pixels and returns the PNG
// it takes. Each call uses a fresh private profile directory. It skips the
// test when Chromium is missing and fails it when Chromium fails.
func Screenshot(t testing.TB, target string, width, height int) []byte {
	t.Helper()
	bin := Require(t)
	if !strings.Contains(target, "://") {
		abs, err := filepath.Abs(target)
		if err != nil {
			t.Fatal(err)
		}
		target = "file://" + abs
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "shot.png")
	one.Lock()
	defer one.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions",
		"--hide-scrollbars", "--force-device-scale-factor=1",
		"--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		"--screenshot="+out, target)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	data, rerr := os.ReadFile(out)
	if err != nil || rerr != nil {
		tail := stderr.String()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		t.Fatalf("chromiumtest: screenshot of %s: %v %v\n%s", target, err, rerr, tail)
	}
	return data
}

// Decode reads a PNG screenshot.
func Decode(data []byte) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("chromiumtest: not a PNG: %w", err)
	}
	return img, nil
}

// Count returns how many pixels of img have the colour hex ("#rrggbb"),
// each channel within tolerance.
func Count(img image.Image, hex string, tolerance int) int {
	want, err := parseHex(hex)
	if err != nil {
		panic(err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(int(r>>8), want[0], tolerance) && near(int(g>>8), want[1], tolerance) && near(int(bl>>8), want[2], tolerance) {
				n++
			}
		}
	}
	return n
}

func near(a, b, tol int) bool { return a-b <= tol && b-a <= tol }

func parseHex(hex string) ([3]int, error) {
	var c [3]int
	if len(hex) != 7 || hex[0] != '#' {
		return c, fmt.Errorf("chromiumtest: colour %q is not #rrggbb", hex)
	}
	for i := range 3 {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return c, fmt.Errorf("chromiumtest: colour %q: %w", hex, err)
		}
		c[i] = int(v)
	}
	return c, nil
}

// Check is what a sane screenshot must show.
type Check struct {
	Width, Height int // the picture's size in pixels; 0 for any
	// Colours that must each cover at least MinPixels pixels (the light and
	// dark squares of a board, say).
	Colours   []string
	MinPixels int
	// Tolerance per colour channel; 0 means 3 (anti-aliasing, colour
	// management).
	Tolerance int
}

// Verify decodes a screenshot and checks it; the error says what is wrong.
// It also refuses a picture of a single colour (a blank page).
func Verify(data []byte, c Check) (image.Image, error) {
	img, err := Decode(data)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	if (c.Width > 0 && b.Dx() != c.Width) || (c.Height > 0 && b.Dy() != c.Height) {
		return img, fmt.Errorf("chromiumtest: picture is %dx%d, want %dx%d", b.Dx(), b.Dy(), c.Width, c.Height)
	}
	tol := c.Tolerance
	if tol == 0 {
		tol = 3
	}
	min := max(c.MinPixels, 1)
	var missing []string
	for _, col := range c.Colours {
		if n := Count(img, col, tol); n < min {
			missing = append(missing, fmt.Sprintf("%s (%d pixels, want at least %d)", col, n, min))
		}
	}
	if len(missing) > 0 {
		return img, fmt.Errorf("chromiumtest: colours missing from the picture: %s", strings.Join(missing, ", "))
	}
	corner := img.At(b.Min.X, b.Min.Y)
	uniform := true
	for y := b.Min.Y; y < b.Max.Y && uniform; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if img.At(x, y) != corner {
				uniform = false
				break
			}
		}
	}
	if uniform {
		return img, fmt.Errorf("chromiumtest: the picture is blank (one colour)")
	}
	return img, nil
}

// Small re-encodes a screenshot for keeping in the repository: the 256
// commonest colours as a palette (each other pixel takes the nearest),
// compressed as far as PNG goes. Boards and text keep their colours; only
// anti-aliased edges shift slightly.
func Small(data []byte) ([]byte, error) {
	img, err := Decode(data)
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	type entry struct {
		c color.RGBA
		n int
	}
	all := make([]entry, 0, len(counts))
	for c, n := range counts {
		all = append(all, entry{c, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		a, b := all[i].c, all[j].c
		return uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B) < uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B)
	})
	pal := make(color.Palette, 0, 256)
	for _, e := range all[:min(256, len(all))] {
		pal = append(pal, e.c)
	}
	out := image.NewPaletted(b, pal)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
