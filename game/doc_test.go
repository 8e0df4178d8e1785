package game

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/internal/chromiumtest"
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
)

// docGame plays the game docs/service.md shows: a few moves of chess
// between alice and bob, bob resigning. It returns alice's receipt for her
// fourth move, bob's news of it, and alice's game-over mail.
func docGame(t *testing.T) (receipt, news, final *sent) { return docGameIn(t, lang.English) }

// docGameIn is docGame with both players writing in language lg.
func docGameIn(t *testing.T, lg lang.Lang) (receipt, news, final *sent) {
	f := newFixture(t, Config{Language: lg})
	f.names = map[string]string{alice: "Alice", bob: "Bob"}
	startChess(t, f)
	for i, m := range []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5"} {
		f.reply([2]string{alice, bob}[i%2], m)
	}
	receipt, news = f.last(alice), f.last(bob)
	f.reply(bob, "resign")
	return receipt, news, f.last(alice)
}

// docBlock matches a mail quoted in docs/service.md between
// <!-- mail:NAME --> and <!-- /mail -->.
var docBlock = regexp.MustCompile("(?s)<!-- mail:([a-z]+) -->\n```text\n(.*?)```\n<!-- /mail -->")

// TestServiceDocShowsRealMails: the receipt, the news and the game-over
// mail quoted in docs/service.md are what the service sends for that game,
// with the subject line; -update rewrites them, and the screenshot of the
// news mail's HTML part (docs/mail-html.png) too.
func TestServiceDocShowsRealMails(t *testing.T) {
	receipt, news, final := docGame(t)
	mails := map[string]*sent{"receipt": receipt, "news": news, "final": final}
	path := filepath.Join("..", "docs", "service.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	out := docBlock.ReplaceAllStringFunc(string(doc), func(block string) string {
		m := docBlock.FindStringSubmatch(block)
		mail, ok := mails[m[1]]
		if !ok {
			t.Errorf("docs/service.md quotes an unknown mail %q", m[1])
			return block
		}
		found[m[1]] = true
		// A 7bit text part keeps the mail's CRLF line ends; the document has LF.
		text := strings.ReplaceAll(mail.Text, "\r\n", "\n")
		want := "To: " + mail.To + "\nSubject: " + mail.Subject + "\n\n" + strings.TrimRight(text, "\n") + "\n"
		if m[2] != want && !*update {
			t.Errorf("docs/service.md's %s mail is not what the service sends (go test ./game -run TestServiceDocShowsRealMails -update rewrites it):\n%s", m[1], want)
		}
		return "<!-- mail:" + m[1] + " -->\n```text\n" + want + "```\n<!-- /mail -->"
	})
	for name := range mails {
		if !found[name] {
			t.Errorf("docs/service.md does not quote the %s mail", name)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := chromiumtest.Path(); err != nil {
			t.Logf("docs/mail-html.png not refreshed: %v", err)
			return
		}
		page := filepath.Join(t.TempDir(), "news.html")
		if err := os.WriteFile(page, []byte(news.HTML), 0o644); err != nil {
			t.Fatal(err)
		}
		shot := chromiumtest.Screenshot(t, page, 640, 760)
		if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: 640, Height: 760,
			Colours: []string{htmlboard.Colours.Light, htmlboard.Colours.Dark}, MinPixels: 4 * 30 * 30}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "mail-html.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		// The same news in German (docs/service.md, "Languages").
		_, newsDE, _ := docGameIn(t, lang.German)
		page = filepath.Join(t.TempDir(), "news-de.html")
		if err := os.WriteFile(page, []byte(newsDE.HTML), 0o644); err != nil {
			t.Fatal(err)
		}
		shot = chromiumtest.Screenshot(t, page, 640, 760)
		if _, err := chromiumtest.Verify(shot, chromiumtest.Check{Width: 640, Height: 760,
			Colours: []string{htmlboard.Colours.Light, htmlboard.Colours.Dark}, MinPixels: 4 * 30 * 30}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "mail-html-de.png"), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
