// Package axetest checks pages for accessibility with axe-core (Deque's
// rules engine, the one browsers' audits use) inside Debian's headless
// Chromium, driven through chromedriver's WebDriver HTTP API with
// net/http: one browser session checks a batch of pages (web pages by
// URL, HTML mail parts from files), and each answer lists axe's
// violations with their impact (minor, moderate, serious, critical).
//
// It needs chromium, chromedriver (Debian's chromium-driver) and the
// axe-core npm package at Version; .ci/run installs all three. A test
// that needs them is skipped, saying which is missing; set
// BOTTLEPOST_NEED_CHROMIUM=1 to make that a failure instead. The axe-core
// script is looked for at $BOTTLEPOST_AXE, then where .ci/run installs it
// (Dir).
package axetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
)

// Version is the axe-core release the checks run, pinned; .ci/run
// installs this one (TestVersionPinnedInCI keeps them together).
const Version = "4.14.1"

// Dir is where .ci/run installs axe-core with npm, outside the
// repository: $XDG_CACHE_HOME (or ~/.cache) /bottlepost/axe-core-VERSION.
func Dir() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "bottlepost", "axe-core-"+Version)
}

// Script returns the path of axe.min.js: $BOTTLEPOST_AXE when set, else
// the one .ci/run installs under Dir.
func Script() (string, error) {
	p := os.Getenv("BOTTLEPOST_AXE")
	if p == "" {
		p = filepath.Join(Dir(), "node_modules", "axe-core", "axe.min.js")
	}
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("axetest: axe-core %s is not installed (npm install --prefix %s axe-core@%s; .ci/run does it): %w", Version, Dir(), Version, err)
	}
	return p, nil
}

// Driver returns chromedriver: $BOTTLEPOST_CHROMEDRIVER when set, else on
// the PATH.
func Driver() (string, error) {
	if p := os.Getenv("BOTTLEPOST_CHROMEDRIVER"); p != "" {
		return p, nil
	}
	for _, c := range []string{"chromedriver", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"} {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("axetest: chromedriver is not installed (Debian: apt-get install chromium-driver; .ci/run installs it)")
}

// Violation is one rule axe found broken, with the elements that break it.
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"` // minor, moderate, serious or critical
	Help   string `json:"help"`
	Nodes  []struct {
		Target  []any  `json:"target"`
		HTML    string `json:"html"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// Serious reports whether a violation is serious or critical: what the
// checks refuse.
func (v Violation) Serious() bool { return v.Impact == "serious" || v.Impact == "critical" }

// String is the violation for a test's log: its rule, impact, help and the
// first few elements.
func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for i, n := range v.Nodes {
		if i == 3 {
			fmt.Fprintf(&b, "\n    … and %d more", len(v.Nodes)-3)
			break
		}
		html := n.HTML
		if len(html) > 160 {
			html = html[:160] + "…"
		}
		fmt.Fprintf(&b, "\n    %v %s\n      %s", n.Target, html, strings.ReplaceAll(n.Summary, "\n", " "))
	}
	return b.String()
}

// Browser is one headless Chromium under chromedriver with axe-core at
// hand: Check runs axe on pages one after another in its one session.
type Browser struct {
	base    string // chromedriver's URL
	session string
	axe     string // the axe-core script
	dir     string // for the HTML files of CheckHTML
	client  *http.Client
	n       int
}

// Timeout bounds one page's check, loading included.
var Timeout = 2 * time.Minute

// Start starts chromedriver and a headless Chromium session, or skips the
// test saying what is missing (fails it under BOTTLEPOST_NEED_CHROMIUM=1).
// Both stop when the test ends.
func Start(t testing.TB) *Browser {
	t.Helper()
	missing := func(err error) {
		t.Helper()
		if os.Getenv("BOTTLEPOST_NEED_CHROMIUM") == "1" {
			t.Fatal(err)
		}
		t.Skip(err.Error())
	}
	chromium, err := chromiumtest.Path()
	if err != nil {
		missing(err)
	}
	driver, err := Driver()
	if err != nil {
		missing(err)
	}
	script, err := Script()
	if err != nil {
		missing(err)
	}
	axe, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, driver, "--port="+strconv.Itoa(port), "--allowed-ips=127.0.0.1", "--log-path="+filepath.Join(dir, "chromedriver.log"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("axetest: starting %s: %v", driver, err)
	}
	b := &Browser{base: "http://127.0.0.1:" + strconv.Itoa(port), axe: string(axe), dir: dir,
		client: &http.Client{Timeout: Timeout}}
	t.Cleanup(func() {
		if b.session != "" {
			_ = b.call(http.MethodDelete, "/session/"+b.session, nil, nil)
		}
		cancel()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		var status struct {
			Ready bool `json:"ready"`
		}
		if err := b.call(http.MethodGet, "/status", nil, &status); err == nil && status.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("axetest: chromedriver did not answer on %s: %s", b.base, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chromium,
			"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--no-first-run", "--no-default-browser-check", "--disable-extensions",
				"--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1000,900"},
		},
	}}}
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(http.MethodPost, "/session", caps, &created); err != nil {
		t.Fatalf("axetest: new session: %v", err)
	}
	b.session = created.SessionID
	if err := b.call(http.MethodPost, "/session/"+b.session+"/timeouts",
		map[string]int{"script": int(Timeout / time.Millisecond), "pageLoad": int(Timeout / time.Millisecond)}, nil); err != nil {
		t.Fatalf("axetest: timeouts: %v", err)
	}
	// axe-core goes into every document the session loads, once for all
	// (Chromium's DevTools command, through chromedriver): sending its
	// 650 kB with every page took most of a page's time.
	if err := b.call(http.MethodPost, "/session/"+b.session+"/goog/cdp/execute",
		map[string]any{"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": map[string]string{"source": b.axe}}, nil); err != nil {
		t.Fatalf("axetest: adding axe-core to the session's documents: %v", err)
	}
	return b
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// call makes one WebDriver request and decodes the answer's value into
// out (when not nil); a WebDriver error becomes an error.
func (b *Browser) call(method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var answer struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		return fmt.Errorf("axetest: %s %s: %d %q", method, path, resp.StatusCode, data)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(answer.Value, &e)
		return fmt.Errorf("axetest: %s %s: %s: %s", method, path, e.Error, e.Message)
	}
	if out != nil {
		if err := json.Unmarshal(answer.Value, out); err != nil {
			return fmt.Errorf("axetest: %s %s: %v", method, path, err)
		}
	}
	return nil
}

// run is the script that runs axe on the page and hands back its
// violations as JSON: the WCAG 2.0, 2.1 and 2.2 A and AA rules and axe's
// best practices.
const run = `const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']})
  .then(r => done(JSON.stringify(r.violations)))
  .catch(e => done('error: ' + e));`

// Check loads url (http:, https: or file:) and returns what axe finds
// there, sorted by rule.
func (b *Browser) Check(t testing.TB, url string) []Violation {
	t.Helper()
	if err := b.call(http.MethodPost, "/session/"+b.session+"/url", map[string]string{"url": url}, nil); err != nil {
		t.Fatalf("axetest: loading %s: %v", url, err)
	}
	var loaded string
	if err := b.call(http.MethodPost, "/session/"+b.session+"/execute/sync",
		map[string]any{"script": "return typeof axe;", "args": []any{}}, &loaded); err != nil || loaded != "object" {
		t.Fatalf("axetest: axe-core is not in %s: %q %v", url, loaded, err)
	}
	var result string
	if err := b.call(http.MethodPost, "/session/"+b.session+"/execute/async",
		map[string]any{"script": run, "args": []any{}}, &result); err != nil {
		t.Fatalf("axetest: running axe on %s: %v", url, err)
	}
	if strings.HasPrefix(result, "error: ") {
		t.Fatalf("axetest: axe on %s: %s", url, result)
	}
	var vs []Violation
	if err := json.Unmarshal([]byte(result), &vs); err != nil {
		t.Fatalf("axetest: axe's answer for %s: %v", url, err)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	return vs
}

// CheckHTML checks a document given as its text (an HTML mail part):
// written to a file of the browser's own and loaded from there.
func (b *Browser) CheckHTML(t testing.TB, name, html string) []Violation {
	t.Helper()
	b.n++
	p := filepath.Join(b.dir, strconv.Itoa(b.n)+"-"+strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, name)+".html")
	if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Check(t, "file://"+p)
}

// Serious returns the serious and critical violations of vs.
func Serious(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if v.Serious() {
			out = append(out, v)
		}
	}
	return out
}

// Summary counts violations by impact: "2 serious, 1 moderate" ("none").
func Summary(vs []Violation) string {
	count := map[string]int{}
	for _, v := range vs {
		count[v.Impact]++
	}
	var parts []string
	for _, impact := range []string{"critical", "serious", "moderate", "minor"} {
		if n := count[impact]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, impact))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
