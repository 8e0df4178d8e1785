package game

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

func TestPlainName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Bob Smith", "Bob Smith"},
		{"white space made single", "  Bob \t Smith ", "Bob Smith"},
		{"quoted", `"Bob Smith"`, "Bob Smith"},
		{"accents", "Zoë Müller", "Zoë Müller"},
		{"empty", "", ""},
		{"blank", "   ", ""},
		{"empty quotes", `""`, ""},
		{"an address", "bob@example.org", ""},
		{"angle brackets", "Bob <bob>", ""},
		{"too long", strings.Repeat("x", maxNameRunes+1), ""},
		{"just long enough", strings.Repeat("é", maxNameRunes), strings.Repeat("é", maxNameRunes)},
		{"unprintable", "Bob\x00Smith", ""},
		{"a fallback name", "Player 12", ""},
		{"a fallback name with #", "player #3", ""},
		{"a name with player in it", "Player One", "Player One"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plainName(tt.in); got != tt.want {
				t.Errorf("plainName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDisplayName(t *testing.T) {
	chosen := (&playerMeta{Name: "Alice Liddell"}).encode()
	badChoice := (&playerMeta{Name: "alice@example.org"}).encode()
	tests := []struct {
		name string
		p    *store.Player
		want string
	}{
		{"the chosen name first", &store.Player{ID: 3, Name: "Alice", Address: alice, Meta: chosen}, "Alice Liddell"},
		{"else the mail's name", &store.Player{ID: 3, Name: "Alice", Address: alice}, "Alice"},
		{"a chosen name that is none", &store.Player{ID: 3, Name: "Alice", Address: alice, Meta: badChoice}, "Alice"},
		{"else player N", &store.Player{ID: 3, Address: alice}, "player 3"},
		{"never an address", &store.Player{ID: 4, Name: alice, Address: alice}, "player 4"},
		{"a damaged meta", &store.Player{ID: 5, Name: "Eve", Address: eve, Meta: []byte("{")}, "Eve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := displayName(tt.p); got != tt.want {
				t.Errorf("displayName = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseNewWithAName(t *testing.T) {
	tests := []struct {
		name, line        string
		opponent, oppName string
		err               string
	}{
		{"address alone", "new chess vs bob@example.org", "bob@example.org", "", ""},
		{"address in brackets", "new chess vs <bob@example.org> as white", "bob@example.org", "", ""},
		{"quoted name", `new chess vs "Bob Smith" <bob@example.org> as white`, "bob@example.org", "Bob Smith", ""},
		{"bare name", "new chess against Bob Smith <bob@example.org> time 3d", "bob@example.org", "Bob Smith", ""},
		{"no space before the bracket", `new chess vs "Bob"<bob@example.org>`, "bob@example.org", "Bob", ""},
		{"an address for a name", `new chess vs "bob@example.org" <bob@example.org>`, "", "", "is not a name bottlepost can show"},
		{"a name without an address", `new chess vs "Bob Smith"`, "", "", "is not a mail address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, errs, _ := ParseCommands([]string{tt.line})
			if tt.err != "" {
				if len(errs) != 1 || !strings.Contains(errs[0].Reason.String(), tt.err) {
					t.Fatalf("errors %v, want one saying %q", errs, tt.err)
				}
				return
			}
			if len(errs) != 0 || len(cmds) != 1 {
				t.Fatalf("commands %+v, errors %v", cmds, errs)
			}
			if c := cmds[0]; c.Opponent != tt.opponent || c.OpponentName != tt.oppName {
				t.Errorf("opponent %q named %q, want %q named %q", c.Opponent, c.OpponentName, tt.opponent, tt.oppName)
			}
		})
	}
}

// TestOneNamePerPlayer: the name a challenge gives an invited stranger is
// theirs in the mails, the subjects, the web and the PGN alike; a player
// invited without one takes their own mail's display name; a player with
// none is "player N" everywhere but in the mails to their opponent, which
// add the address.
func TestOneNamePerPlayer(t *testing.T) {
	f := newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice", bob: "Robert", carol: "Carol C."}
	pa := f.personal(alice)
	f.send(alice, pa, "new", `new chess vs "Bob Smith" <`+bob+`> as white`)
	f.mustContain(f.last(alice), "Your challenge to Bob Smith <"+bob+">")
	f.mustContain(f.last(bob), "Alice <"+alice+"> challenges you")
	f.reply(bob, "accept") // his mail says Robert: the challenge's name stays
	if s := f.last(alice).Subject; s != "[bp-1] your move (1.) · Chess v Bob Smith" {
		t.Errorf("alice's subject %q", s)
	}
	f.reply(alice, "f3")
	f.reply(bob, "e5")
	f.reply(alice, "g4")
	f.reply(bob, "Qh4#")
	pg, err := f.svc.PublicGame(1)
	if err != nil || pg.Players != [2]string{"Alice", "Bob Smith"} {
		t.Errorf("the web names %v (%v)", pg.Players, err)
	}
	pgn := finalPGN(t, f, 1)
	for _, tag := range []string{`[White "Alice"]`, `[Black "Bob Smith"]`} {
		if !bytes.Contains(pgn, []byte(tag)) {
			t.Errorf("the PGN lacks %s:\n%s", tag, pgn)
		}
	}

	// Invited without a name: their first mail names them.
	f.send(alice, pa, "new", "new chess vs "+carol+" as white")
	if s := f.last(alice).Subject; s != "[bp-2] challenge sent, waiting for an answer · Chess v player 3" {
		t.Errorf("the challenge's subject %q", s)
	}
	f.mustContain(f.last(alice), "Your challenge to player 3 <"+carol+">")
	f.reply(carol, "accept")
	if s := f.last(alice).Subject; s != "[bp-2] your move (1.) · Chess v Carol C." {
		t.Errorf("the subject once carol wrote %q", s)
	}
	f.reply(carol, "resign")
	pg, err = f.svc.PublicGame(2)
	if err != nil || pg.Players != [2]string{"Alice", "Carol C."} {
		t.Errorf("the web names %v (%v)", pg.Players, err)
	}
}

func TestNameCommand(t *testing.T) {
	tests := []struct {
		name, line, want string
		shown            string // displayName afterwards; "" when unchanged
	}{
		{"a name", "name Alice Liddell", "You are now shown as Alice Liddell", "Alice Liddell"},
		{"spaces made single", "name   Mary-Jane  O'Neil Jr.", "shown as Mary-Jane O'Neil Jr.", "Mary-Jane O'Neil Jr."},
		{"letters of any script", "name Zoë Ærøskøbing 3", "shown as Zoë Ærøskøbing 3", "Zoë Ærøskøbing 3"},
		{"forty characters", "name " + strings.Repeat("a", 40), "shown as " + strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{"forty-one", "name " + strings.Repeat("a", 41), "a name has at most 40 characters", ""},
		{"an address", "name alice@example.org", `"@" is not allowed`, ""},
		{"markup", "name <b>Alice</b>", `"<" is not allowed`, ""},
		{"quotes", `name "Alice"`, `"\"" is not allowed`, ""},
		{"a fallback name", "name player 2", "the form of the names bottlepost gives", ""},
		{"off", "name off", "You no longer have a name of your own: you are shown as Alice", "Alice"},
		{"alone", "name", "name you Alice (the display name of your mail)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			f.names = map[string]string{alice: "Alice"}
			pa := f.personal(alice)
			f.send(alice, pa, "name", tt.line)
			f.mustContain(f.last(alice), tt.want)
			want := tt.shown
			if want == "" {
				want = "Alice"
			}
			if err := f.st.View(func(tx *store.Tx) error {
				p, err := tx.PlayerByAddress(alice)
				if err == nil && displayName(p) != want {
					t.Errorf("shown as %q, want %q", displayName(p), want)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestChosenNameEverywhere: a chosen name is what the opponent's mails,
// the PGN's White and Black tags and the public game show; the mails
// still show the address; name off goes back to the mail's name for the
// next game, and a finished game keeps the name it ended with.
func TestChosenNameEverywhere(t *testing.T) {
	f := newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice", bob: "Bob"}
	startChess(t, f)
	f.reply(alice, "name Alice Liddell", "e4")
	f.mustContain(f.last(bob), "Alice Liddell <"+alice+"> (as White)")
	if !strings.Contains(f.last(bob).Subject, "Chess v Alice Liddell") {
		t.Errorf("bob's subject %q lacks the chosen name", f.last(bob).Subject)
	}
	f.reply(bob, "resign")
	pgn := finalPGN(t, f, 1)
	for _, tag := range []string{`[White "Alice Liddell"]`, `[Black "Bob"]`} {
		if !bytes.Contains(pgn, []byte(tag)) {
			t.Errorf("the PGN lacks %s:\n%s", tag, pgn)
		}
	}
	if bytes.Contains(pgn, []byte(alice)) {
		t.Errorf("the PGN shows an address")
	}
	f.send(alice, f.personalOf(alice), "name", "name off")
	pgn = finalPGN(t, f, 1)
	if !bytes.Contains(pgn, []byte(`[White "Alice Liddell"]`)) {
		t.Errorf("the finished game lost the name it ended with:\n%s", pgn)
	}
	pub, err := f.svc.PublicGame(1)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Players[0] != "Alice Liddell" {
		t.Errorf("the public game names White %q", pub.Players[0])
	}
}
