package game

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/mail"
)

// namedChess starts a chess game between alice (White) and bob whose
// mails name them Alice and Bob, observed by eve.
func namedChess(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice", bob: "Bob"}
	startChess(t, f)
	f.send(eve, f.personal(eve), "observe", "observe 1")
	return f
}

func TestSay(t *testing.T) {
	tests := []struct {
		name  string
		from  string
		lines []string
		// bobMails is how many mails bob gets; bobWants what the last one
		// says, in order; aliceWants what alice's answer says.
		bobMails             int
		bobWants, aliceWants []string
		moves                int
	}{
		{"with the move, below its news", alice, []string{"say Good luck!", "e4", "say Have fun."}, 1,
			[]string{"White played 1. e4.", "Alice says:\n  Good luck!\n  Have fun.\n", "Black to move"},
			[]string{"Your move e4 was accepted.", "Your words were passed to Bob."}, 1},
		{"a mail of its own", alice, []string{"say Shall we play on Sundays?"}, 1,
			[]string{"Alice says:\n  Shall we play on Sundays?"},
			[]string{"Your words were passed to Bob."}, 0},
		{"with a refused move: the words still go", alice, []string{"e5", "say Oops"}, 1,
			[]string{"Alice says:\n  Oops"},
			[]string{"Your move was not played", "Your words were passed to Bob."}, 0},
		{"say: with a colon", alice, []string{"Say:   spaced   out  "}, 1,
			[]string{"Alice says:\n  spaced   out\n"}, nil, 0},
		{"no words", alice, []string{"say"}, 0, nil, []string{"write your words after say"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := namedChess(t)
			nb, ne := len(f.inbox[bob]), len(f.inbox[eve])
			f.reply(tt.from, tt.lines...)
			if got := len(f.inbox[bob]) - nb; got != tt.bobMails {
				t.Fatalf("bob got %d mails, want %d", got, tt.bobMails)
			}
			if tt.bobMails > 0 {
				m := f.last(bob)
				text := strings.ReplaceAll(m.Text, "\r\n", "\n")
				at := 0
				for _, w := range tt.bobWants {
					i := strings.Index(text[at:], w)
					if i < 0 {
						t.Fatalf("bob's mail lacks %q after offset %d:\n%s", w, at, text)
					}
					at += i + len(w)
				}
				if !strings.Contains(m.HTML, "Alice says:") {
					t.Errorf("the HTML part lacks the words:\n%s", m.HTML)
				}
			}
			f.mustContain(f.last(alice), tt.aliceWants...)
			for _, m := range f.inbox[eve][ne:] {
				if strings.Contains(m.Text, "says:") || strings.Contains(m.HTML, "says:") {
					t.Errorf("the observer was shown the words:\n%s", m.Text)
				}
			}
			assertMoves(t, f, 1, tt.moves)
		})
	}
}

// TestSayLimits: at most maxSayRunes characters a mail (cut, the sender
// told) and SaysPerDay mails with words a day per game and sender (the
// sender told past it; a day later words go again).
func TestSayLimits(t *testing.T) {
	f := namedChess(t)
	long := strings.Repeat("ж", 700)
	nb := len(f.inbox[bob])
	f.reply(alice, "say "+long, "say "+long)
	m := f.last(bob)
	var got []rune
	for _, line := range strings.Split(m.Text, "\n") {
		if strings.HasPrefix(line, "  ж") {
			got = append(got, []rune(strings.TrimSpace(line))...)
		}
	}
	if len(got) != maxSayRunes {
		t.Errorf("bob read %d characters of words, want %d", len(got), maxSayRunes)
	}
	f.mustContain(f.last(alice), "Your words were cut after 1000 characters")
	for i := 2; i <= SaysPerDay; i++ {
		f.now = f.now.Add(time.Minute)
		f.reply(alice, fmt.Sprintf("say note %d", i))
	}
	if n := len(f.inbox[bob]) - nb; n != SaysPerDay {
		t.Fatalf("bob got %d mails, want %d", n, SaysPerDay)
	}
	f.reply(alice, "say one too many", "e4")
	if n := len(f.inbox[bob]) - nb; n != SaysPerDay+1 || strings.Contains(f.last(bob).Text, "one too many") {
		t.Errorf("the words past the limit were passed on (%d mails):\n%s", n, f.last(bob).Text)
	}
	f.mustContain(f.last(alice), "Your move e4 was accepted", "your words were not passed on: at most 10 mails with words a day")
	f.now = f.now.Add(24 * time.Hour)
	f.reply(alice, "say a new day")
	f.mustContain(f.last(bob), "Alice says:", "a new day")
}

// TestMessagesOff: while bob has messages off no words reach him, and
// alice is told once; with them on again, they do.
func TestMessagesOff(t *testing.T) {
	f := namedChess(t)
	f.send(bob, f.personalOf(bob), "quiet", "messages off")
	f.mustContain(f.last(bob), "no longer reach you")
	nb := len(f.inbox[bob])
	f.reply(alice, "say hello")
	f.mustContain(f.last(alice), "Your words were not passed on: Bob has turned messages off")
	na := len(f.inbox[alice])
	f.reply(alice, "say hello again")
	if len(f.inbox[alice]) != na {
		t.Errorf("alice was told twice, or told the words went:\n%s", f.last(alice).Text)
	}
	f.reply(alice, "e4", "say with a move")
	for _, m := range f.inbox[bob][nb:] {
		if strings.Contains(m.Text, "says:") {
			t.Errorf("bob got words with messages off:\n%s", m.Text)
		}
	}
	if n := len(f.inbox[bob]) - nb; n != 1 {
		t.Errorf("bob got %d mails, want the news of the move alone", n)
	}
	f.send(bob, f.personalOf(bob), "loud", "messages on")
	f.reply(alice, "say can you hear me")
	f.mustContain(f.last(bob), "Alice says:", "can you hear me")
	f.cfgReferee(ref)
	f.send(ref, f.personal(ref), "audit", "audit 1")
	f.mustContain(f.last(ref), "message of White", "(not passed on: messages off)", "  hello again", "(passed on):", "  can you hear me")
}

// TestHostileWords: words with line breaks, encoded words, HTML and ten
// megabytes change no header field and break no part: the mail parses,
// has the fields of a mail without words, escapes the HTML, and keeps its
// text within 78 columns.
func TestHostileWords(t *testing.T) {
	hostile := map[string]string{
		"CRLF":         "hi\r\nSubject: you won\r\nBcc: eve@evil.test\r\n\r\n-- \r\nfake footer",
		"encoded word": "=?utf-8?b?WW91IHdvbg==?= =?iso-8859-1?q?=E9t=E9?=",
		"HTML":         `<script>alert(1)</script><a href="http://evil.test/">click</a></blockquote><b>&amp;`,
		"bidi":         "abc\u202eevil\u2066x",
		"10 MB":        strings.Repeat("x", 10<<20),
		"long words":   strings.Repeat("supercalifragilistic", 60),
	}
	fields := func(m *sent) []string {
		r, err := mail.CreateReader(strings.NewReader(string(m.Raw)))
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for f := r.Header.Fields(); f.Next(); {
			keys = append(keys, f.Key())
		}
		slices.Sort(keys)
		return keys
	}
	plain := namedChess(t)
	plain.reply(alice, "say plain words")
	want := fields(plain.last(bob))
	for name, text := range hostile {
		t.Run(name, func(t *testing.T) {
			f := namedChess(t)
			nb := len(f.inbox[bob])
			f.reply(alice, "say "+text)
			if len(f.inbox[bob]) != nb+1 {
				t.Fatalf("bob got %d mails, want 1", len(f.inbox[bob])-nb)
			}
			m := f.last(bob)
			if got := fields(m); !slices.Equal(got, want) {
				t.Errorf("header fields %v, want %v", got, want)
			}
			if m.Subject != plain.last(bob).Subject || m.To != bob {
				t.Errorf("subject %q to %q", m.Subject, m.To)
			}
			if strings.Contains(m.HTML, "<script") || strings.Contains(m.HTML, `href="http://evil`) || strings.Contains(m.HTML, "</blockquote><b>") {
				t.Errorf("the HTML part carries the words unescaped:\n%s", m.HTML)
			}
			if !strings.Contains(m.HTML, "Alice says:") || !strings.Contains(m.Text, "Alice says:") {
				t.Errorf("the words are missing:\n%s", m.Text)
			}
			for _, line := range strings.Split(m.Text, "\n") {
				if n := utf8.RuneCountInString(strings.TrimRight(line, "\r")); n > textWidth {
					t.Errorf("a text line of %d characters: %q", n, line)
				}
				if strings.ContainsFunc(line, func(r rune) bool { return r == '\u202e' || r == '\u2066' || unicode.IsControl(r) && r != '\r' }) {
					t.Errorf("a control character reached the text: %q", line)
				}
			}
			if len(m.Raw) > 200<<10 {
				t.Errorf("the mail is %d bytes", len(m.Raw))
			}
		})
	}
}

// TestWordsStaySealed: the words are in neither the PGN, nor the public
// game, nor the store in the clear; the audit lists them.
func TestWordsStaySealed(t *testing.T) {
	f := namedChess(t)
	const words = "my secret plan is the Sicilian"
	f.reply(alice, "e4", "say "+words)
	f.reply(bob, "resign", "say good game")
	pgn := finalPGN(t, f, 1)
	if strings.Contains(string(pgn), "Sicilian") || strings.Contains(string(pgn), "good game") {
		t.Errorf("the PGN carries the words:\n%s", pgn)
	}
	f.mustContain(f.last(alice), "Game over", "Bob says:", "good game")
	pub, err := f.svc.PublicGame(1)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(pub); strings.Contains(string(b), "Sicilian") {
		t.Errorf("the public game carries the words")
	}
	raw, err := os.ReadFile(f.st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "Sicilian") {
		t.Errorf("the store keeps the words in the clear")
	}
}

// TestSayNeedsTheSeat: words are taken only from a game's authenticated
// player: a mail in someone's name to their seat, or a stranger's first
// mail, passes nothing on.
func TestSayNeedsTheSeat(t *testing.T) {
	f := namedChess(t)
	nb := len(f.inbox[bob])
	seat := f.inbox[alice][len(f.inbox[alice])-1].ReplyTo
	f.send(eve, seat, "Re: game", "say I resign, fool")
	f.send("mallory@evil.test", f.svc.cfg.Address, "hi", "say to bob: hello")
	if len(f.inbox[bob]) != nb {
		t.Errorf("bob got words from someone not seated:\n%s", f.last(bob).Text)
	}
	f.mustContain(f.last("mallory@evil.test"), "say")
}

func FuzzParseSay(f *testing.F) {
	for _, s := range []string{"say hi", "SAY: x", "say", "sayonara", " say \x00\r\n\u202e" + strings.Repeat("é", 1200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, perr, ok := parseSay(line)
		if !ok {
			if perr != nil || c.Verb != "" {
				t.Fatalf("not a say line, yet %v %v", c, perr)
			}
			return
		}
		if perr != nil {
			return
		}
		if n := utf8.RuneCountInString(c.Arg); n == 0 || n > maxSayRunes+1 {
			t.Fatalf("%d characters of words", n)
		}
		if strings.ContainsFunc(c.Arg, unicode.IsControl) || !utf8.ValidString(c.Arg) {
			t.Fatalf("words %q keep a control character or bad UTF-8", c.Arg)
		}
	})
}

// TestSayBeforeTheGame: words go only in a game that has begun: an
// invited stranger gets none with the challenge.
func TestSayBeforeTheGame(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob)
	nb := len(f.inbox[bob])
	f.send(alice, f.personalOf(alice), "Re: [bp-1]", "say come and play, click http://evil.test/")
	f.mustContain(f.last(alice), "your words were not passed on: game 1 has not started")
	if len(f.inbox[bob]) != nb {
		t.Errorf("the invited stranger got the words:\n%s", f.last(bob).Text)
	}
}
