package game

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
)

// tournamentPlayers are the five players of the tests, in the order the
// referee names them (their draw numbers 1–5).
var tournamentPlayers = []string{alice, bob, "carol@example.com", "dave@example.com", "erin@example.com"}

// gameMails are the mails of game id to addr, oldest first.
func (f *fixture) gameMails(addr string, id uint64) []*sent {
	var out []*sent
	for _, m := range f.inbox[addr] {
		if g, ok := mailfmt.ParseTag(m.Subject); ok && g == id {
			out = append(out, m)
		}
	}
	return out
}

// inGame sends lines from addr in game id's thread (a reply to the first
// mail of the game they received).
func (f *fixture) inGame(addr string, id uint64, lines ...string) {
	f.t.Helper()
	ms := f.gameMails(addr, id)
	if len(ms) == 0 {
		f.t.Fatalf("%s has no mail of game %d", addr, id)
	}
	f.send(addr, ms[0].ReplyTo, "Re: "+ms[0].Subject, lines...)
}

// createTournament has the referee create the five players' tournament and
// checks the answer and the invitations; it returns the fixture with alice
// and bob known to the service and the others strangers.
func createTournament(t *testing.T, extra string) *fixture {
	t.Helper()
	f := newFixture(t, Config{Referees: []string{ref}})
	f.names = map[string]string{alice: "Alice", bob: "Bob Smith", "carol@example.com": "Carol"}
	f.send(alice, f.personal(alice), "games", "games") // alice and bob have written: no strangers
	f.send(bob, f.personal(bob), "games", "games")
	pr := f.personal(ref)
	f.send(ref, pr, "a tournament",
		`tournament new "Spring open" variant chess time 3d`+extra+` players alice@example.org, "Bob Smith" <bob@example.net>,`,
		`carol@example.com, Dave <dave@example.com>, erin@example.com`)
	f.mustContain(f.last(ref), "Tournament 1, Spring open, is created: a rated round robin of Chess",
		"Bob Smith <bob@example.net>", "Dave <dave@example.com>", "tournament 1 start")
	for _, p := range tournamentPlayers {
		inv := f.last(p)
		if !strings.HasPrefix(inv.Subject, "Tournament 1: invitation") {
			t.Fatalf("%s got %q, want the invitation", p, inv.Subject)
		}
		f.mustContain(inv, "invites you to play in tournament 1, Spring open", "5 players", "4 games at once", "join", "decline")
		stranger := strings.Contains(inv.Text, "bottlepost is a server")
		if stranger != (p != alice && p != bob) {
			t.Errorf("invitation to %s: told what bottlepost is: %v", p, stranger)
		}
	}
	return f
}

// TestTournamentByMail plays a five-player tournament by mail to its final
// standings: the invitations, the answers, every game started at once
// (its start mail in its own thread, colours from the Berger table), a
// mail to each player listing their games, the standings line in every
// game mail, the crosstable, the final standings.
func TestTournamentByMail(t *testing.T) {
	f := createTournament(t, "")
	for i, p := range tournamentPlayers[:4] {
		f.reply(p, "join")
		f.mustContain(f.last(p), "You joined tournament 1, Spring open.")
		f.mustContain(f.last(ref), fmt.Sprintf("joined tournament 1: %d joined, %d not yet answered", i+1, 4-i))
	}
	f.send(ref, f.personal(ref), "crosstable", "tournament 1")
	f.mustContain(f.last(ref), "waiting for its players' answers (4 joined, 1 not yet answered)", " 2. Bob Smith", " 4. Dave")
	before := len(f.all)
	f.reply("erin@example.com", "join") // the last answer: every game starts
	if got, want := len(f.all)-before, 10*2+5+1+1; got != want {
		t.Errorf("the start sent %d mails, want %d (2 per game, 1 per player, the referee's, erin's answer)", got, want)
	}
	f.mustContain(f.last(ref), "Tournament 1, Spring open, has begun: 5 players, 10 games started.")

	// The games: Berger's table for 5 (the 6-player table, 6 the bye).
	for _, p := range tournamentPlayers {
		var list *sent
		for _, m := range f.inbox[p] {
			if strings.HasPrefix(m.Subject, "Tournament 1: your games") {
				list = m
			}
		}
		if list == nil {
			t.Fatalf("%s has no list of their games", p)
		}
		f.mustContain(list, "Tournament 1, Spring open, has begun: 5 players, 10 games")
		n := 0
		for _, line := range strings.Split(list.Text, "\n") {
			var round int
			var id uint64
			var colour string
			if _, err := fmt.Sscanf(line, "Round %d: game %d, %s v", &round, &id, &colour); err != nil {
				continue
			}
			n++
			opp := strings.TrimSpace(line[strings.Index(line, " v ")+3:])
			ms := f.gameMails(p, id)
			if len(ms) != 1 {
				t.Fatalf("%s has %d mails of game %d, want its start mail", p, len(ms), id)
			}
			start := ms[0]
			if start.InReplyTo != "" || start.References != "" || !strings.HasPrefix(start.MessageID, fmt.Sprintf("game-%d.", id)) {
				t.Errorf("game %d's start mail to %s does not start its thread: %q %q %q", id, p, start.MessageID, start.InReplyTo, start.References)
			}
			f.mustContain(start, "The game has begun", fmt.Sprintf("Tournament 1, Spring open: round %d.", round), "Spring open: 0/0, =1st of 5")
			if colour != "White" && colour != "Black" || opp == "" {
				t.Errorf("%s's list: %q", p, line)
			}
		}
		if n != 4 {
			t.Errorf("%s's list names %d games, want 4:\n%s", p, n, list.Text)
		}
	}
	// The pairs and colours of the table: round 1 is 2–5 and 3–4 (1 has
	// the bye), round 2 is 5–3 and 1–2, …
	pairs := f.tournamentPairs(1)
	want := "1:2-5 1:3-4 2:5-3 2:1-2 3:3-1 3:4-5 4:1-4 4:2-3 5:4-2 5:5-1"
	if got := pairs.String(); got != want {
		t.Errorf("pairs %s, want %s", got, want)
	}

	playResults(t, f, pairs)
	checkFinal(t, f, pairs)
}

// playFiveTournament plays TestTournamentByMail's tournament to its end.
func playFiveTournament(t *testing.T) *fixture {
	f := createTournament(t, "")
	for _, p := range tournamentPlayers {
		f.reply(p, "join")
	}
	playResults(t, f, f.tournamentPairs(1))
	return f
}

// playResults plays the five players' games by mail: the lower draw
// number wins (the other resigns), but 2 and 3 agree a draw.
func playResults(t *testing.T, f *fixture, pairs tourPairs) {
	for _, g := range pairs {
		w, b := tournamentPlayers[g.white-1], tournamentPlayers[g.black-1]
		switch {
		case g.white+g.black == 5 && min(g.white, g.black) == 2:
			f.inGame(w, g.game, "draw")
			f.inGame(b, g.game, "draw")
		case g.white < g.black:
			f.inGame(b, g.game, "resign")
		default:
			f.inGame(w, g.game, "resign")
		}
		if g.game == pairs[3].game {
			f.send(eve, f.personal(eve), "crosstable", "tournament 1")
			f.mustContain(f.last(eve), "Spring open: a rated round robin of Chess, after 4 of 10 games.")
		}
	}
}

// checkFinal checks the final standings every participant received, the
// last game's standings lines, tournaments, and every line's width.
func checkFinal(t *testing.T, f *fixture, pairs tourPairs) {
	finalMail := func(p string) *sent {
		var found *sent
		for _, m := range f.inbox[p] {
			if strings.HasPrefix(m.Subject, "Tournament 1: final standings") {
				if found != nil {
					t.Errorf("%s received the final standings twice", p)
				}
				found = m
			}
		}
		return found
	}
	table := `Pl.  No. Name       Pts  S-B     Wins
1      1 Alice      4    6       4
2=     2 Bob Smith  2½   2.25    2
2=     3 Carol      2½   2.25    2
4      4 Dave       1    0       1
5      5 player 6   0    0       0

     1 2 3 4 5
  1  × 1 1 1 1
  2  0 × ½ 1 1
  3  0 ½ × 1 1
  4  0 0 0 × 1
  5  0 0 0 0 ×`
	for _, p := range append(tournamentPlayers, ref) {
		m := finalMail(p)
		if m == nil {
			t.Errorf("%s did not receive the final standings", p)
			continue
		}
		f.mustContain(m, "final standings", table)
	}
	last := pairs[len(pairs)-1]
	for _, p := range []int{last.white, last.black} {
		ms := f.gameMails(tournamentPlayers[p-1], last.game)
		lines := map[int]string{1: "Spring open: 4/4, 1st of 5", 2: "Spring open: 2½/4, =2nd of 5", 3: "Spring open: 2½/4, =2nd of 5",
			4: "Spring open: 1/4, 4th of 5", 5: "Spring open: 0/4, 5th of 5"}
		f.mustContain(ms[len(ms)-1], lines[p])
	}
	f.send(bob, f.personal(bob), "mine", "tournaments")
	f.mustContain(f.last(bob), "Tournament 1, Spring open (Chess): over; you: 2½/4, =2nd of 5")
	for _, m := range f.all {
		for _, line := range strings.Split(m.Text, "\n") {
			if utf8.RuneCountInString(strings.TrimRight(line, "\r")) > 78 {
				t.Errorf("mail %q to %s has a line of more than 78 columns: %q", m.Subject, m.To, line)
			}
		}
	}
}

// tourPair is one game of a tournament as the test reads it from the store.
type tourPair struct {
	round, white, black int
	game                uint64
}

type tourPairs []tourPair

func (ps tourPairs) String() string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprintf("%d:%d-%d", p.round, p.white, p.black))
	}
	return strings.Join(s, " ")
}

// tournamentPairs reads tournament id's games from the store.
func (f *fixture) tournamentPairs(id uint64) tourPairs {
	f.t.Helper()
	var out tourPairs
	err := f.st.View(func(tx *store.Tx) error {
		t, err := loadTournament(tx, id)
		if err != nil {
			return err
		}
		for _, g := range t.Games {
			out = append(out, tourPair{round: g.Round, white: g.White + 1, black: g.Black + 1, game: g.Game})
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

// TestTournamentWithdrawal: a player's withdrawal (asked, then confirmed)
// and a referee's: each unfinished game of theirs is lost by forfeit, its
// opponent told, the crosstable shows + and −, the ratings do not take it.
func TestTournamentWithdrawal(t *testing.T) {
	f := createTournament(t, "")
	for _, p := range tournamentPlayers {
		f.reply(p, "join")
	}
	pairs := f.tournamentPairs(1)
	erin := tournamentPlayers[4]
	var played uint64 // erin (5) v alice (1), round 5: erin resigns first
	for _, g := range pairs {
		if g.white == 5 && g.black == 1 {
			played = g.game
		}
	}
	f.inGame(erin, played, "resign")

	f.send(erin, f.personal(erin), "leaving", "withdraw 1")
	f.mustContain(f.last(erin), "reply: withdraw 1 confirm", "still being played (3)")
	if n := f.tournamentPairs(1); fmt.Sprint(n) != fmt.Sprint(pairs) {
		t.Fatalf("asking to withdraw changed the tournament")
	}
	f.reply(erin, "withdraw 1 confirm")
	f.mustContain(f.last(erin), "You have withdrawn from tournament 1, Spring open: 3 games lost by forfeit.")
	for _, g := range pairs {
		if g.game == played || g.white != 5 && g.black != 5 {
			continue
		}
		opp := tournamentPlayers[g.white+g.black-5-1]
		ms := f.gameMails(opp, g.game)
		m := ms[len(ms)-1]
		f.mustContain(m, "wins: forfeit: player 6 withdrew from the tournament", "Not rated: the game was lost by forfeit")
	}
	f.send(ref, f.personal(ref), "withdraw", "tournament 1 withdraw <dave@example.com>")
	f.mustContain(f.last(ref), "dave@example.com is withdrawn from tournament 1: 3 games lost by forfeit")
	f.send(ref, f.personal(ref), "withdraw", "tournament 1 withdraw dave@example.com")
	f.mustContain(f.last(ref), "has already withdrawn")
	f.send(ref, f.personal(ref), "table", "tournament 1")
	f.mustContain(f.last(ref), `
     1 2 3 4 5
  1  × · · + 1
  2  · × · + +
  3  · · × + +
  4  − − − × +
  5  0 − − − ×`)
	// The withdrawn player's mails of the games still on say nothing new;
	// a second withdrawal is refused.
	f.reply(erin, "withdraw 1 confirm")
	f.mustContain(f.last(erin), "you have already withdrawn from tournament 1")
}

// TestTournamentDocShowsRealMail: the final standings mail quoted in
// docs/tournaments.md is what the service sends at the end of
// TestTournamentByMail's tournament; -update rewrites it.
func TestTournamentDocShowsRealMail(t *testing.T) {
	f := playFiveTournament(t)
	var m *sent
	for _, s := range f.inbox[bob] {
		if strings.HasPrefix(s.Subject, "Tournament 1: final standings") {
			m = s
		}
	}
	if m == nil {
		t.Fatal("bob got no final standings")
	}
	path := filepath.Join("..", "docs", "tournaments.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "To: " + m.To + "\nSubject: " + m.Subject + "\n\n" + strings.TrimRight(m.Text, "\n") + "\n"
	found := false
	out := docBlock.ReplaceAllStringFunc(string(doc), func(block string) string {
		b := docBlock.FindStringSubmatch(block)
		if b[1] != "standings" {
			t.Errorf("docs/tournaments.md quotes an unknown mail %q", b[1])
			return block
		}
		found = true
		if b[2] != want && !*update {
			t.Errorf("docs/tournaments.md's mail is not what the service sends (-update rewrites it):\n%s", want)
		}
		return "<!-- mail:standings -->\n```text\n" + want + "```\n<!-- /mail -->"
	})
	if !found {
		t.Error("docs/tournaments.md quotes no standings mail")
	}
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTournamentStartDate: on its start date the sweep starts a
// tournament with the players who joined, re-paired for their number, or
// cancels it, everyone told, when fewer than three joined.
func TestTournamentStartDate(t *testing.T) {
	t.Run("started with three", func(t *testing.T) {
		f := createTournament(t, " starts 2026-12-01")
		f.mustContain(f.last(alice), "or on Tue 1 Dec 2026 with those who have joined by then")
		f.reply(alice, "join")
		f.reply(bob, "join")
		f.reply("carol@example.com", "join")
		f.reply("dave@example.com", "decline")
		f.mustContain(f.last(ref), "declined tournament 1: 3 joined, 1 not yet answered")
		before := len(f.all)
		f.now = time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC)
		if res, err := f.svc.Tick(f.now); err != nil || res.Tournaments != 0 {
			t.Fatalf("the day before: %+v %v", res, err)
		}
		f.now = time.Date(2026, 12, 1, 0, 5, 0, 0, time.UTC)
		res, err := f.svc.Tick(f.now)
		if err != nil || res.Tournaments != 1 {
			t.Fatalf("on the day: %+v %v", res, err)
		}
		f.drain()
		if got := len(f.all) - before; got != 3*2+3+1 {
			t.Errorf("the start sent %d mails, want 10", got)
		}
		if got := f.tournamentPairs(1).String(); got != "2:1-2 3:3-1 1:2-3" && got != "1:2-3 2:1-2 3:3-1" {
			t.Errorf("pairs %s, want the 4-player table without the bye: 1:2-3 2:1-2 3:3-1", got)
		}
		f.mustContain(f.last(ref), "has begun: 3 players, 3 games started")
		for _, p := range []string{"dave@example.com", "erin@example.com"} {
			if strings.Contains(f.last(p).Subject, "your games") {
				t.Errorf("%s, who did not join, got a list of games", p)
			}
		}
		if res, _ := f.svc.Tick(f.now.Add(time.Hour)); res.Tournaments != 0 {
			t.Errorf("a second sweep started it again")
		}
	})
	t.Run("cancelled with two", func(t *testing.T) {
		f := createTournament(t, " starts 2026-12-01")
		f.reply(alice, "join")
		f.reply(bob, "join")
		f.now = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		if res, err := f.svc.Tick(f.now); err != nil || res.Tournaments != 1 {
			t.Fatalf("on the day: %+v %v", res, err)
		}
		f.drain()
		for _, p := range append(tournamentPlayers, ref) {
			f.mustContain(f.last(p), "Tournament 1, Spring open, is cancelled: on its start date only 2 players had joined")
		}
		f.reply(alice, "tournament 1 join")
		f.mustContain(f.last(alice), "tournament 1 is no longer waiting for answers (it is cancelled)")
	})
	t.Run("a date that has passed", func(t *testing.T) {
		f := newFixture(t, Config{Referees: []string{ref}})
		f.send(ref, f.personal(ref), "new", "tournament new Open variant chess time 3d starts 2026-11-21 players a@x.org, b@x.org, c@x.org")
		f.mustContain(f.last(ref), "the start date 2026-11-21 is not after today")
		f.send(ref, f.personal(ref), "new", "tournament new Open variant chess time 3d starts soon players a@x.org, b@x.org, c@x.org")
		f.mustContain(f.last(ref), `"soon" is not a date`)
	})
}

// TestTournamentRefusals: what tournament commands refuse, each answered
// with what to do and changing nothing.
func TestTournamentRefusals(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}})
	pa := f.personal(alice)
	tests := []struct{ from, line, want string }{
		{alice, "tournament new Open variant chess time 3d players a@x.org, b@x.org, c@x.org", "only a referee of this service may create a tournament"},
		{ref, "tournament new Open variant chess time 3d players a@x.org, b@x.org", "a tournament has 3 to 20 players, not 2"},
		{ref, "tournament new Open variant chess time 3d players a@x.org, a@x.org, c@x.org", "a@x.org is named twice"},
		{ref, "tournament new Open variant chess time 3d players a@x.org b@x.org, c@x.org, d@x.org", "separate the players with commas"},
		{ref, "tournament new Open variant nochess time 3d players a@x.org, b@x.org, c@x.org", "nochess"},
		{ref, `tournament new "Open variant chess players a@x.org, b@x.org, c@x.org`, "no closing quote"},
		{ref, "tournament new Open variant chess time 3d", "name the players after the word players"},
		{ref, "tournament 7", "there is no tournament 7"},
		{alice, "join 7", "there is no tournament 7"},
		{alice, "withdraw 7", "there is no tournament 7"},
	}
	for _, tt := range tests {
		to := pa
		if tt.from == ref {
			to = f.personal(ref)
		}
		f.send(tt.from, to, "t", tt.line)
		f.mustContain(f.last(tt.from), tt.want)
	}
	var n uint64
	f.st.View(func(tx *store.Tx) error { n, _ = tournamentCount(tx); return nil })
	if n != 0 {
		t.Errorf("%d tournaments were created", n)
	}
}

// seachessTournament plays, in a three-player Seachess tournament, the game
// of round 2 (alice, White, v bob) up to a dive and a move under water, and
// returns every mail bob received of it from the first hidden move on, and
// the crosstable an onlooker then receives.
func seachessTournament(t *testing.T, dive, underwater string) (mails []*sent, table *sent) {
	t.Helper()
	f := newFixture(t, Config{Referees: []string{ref}})
	f.names = map[string]string{alice: "alice", bob: "bob", "carol@example.com": "carol"}
	f.send(ref, f.personal(ref), "new", "tournament new Sea variant seachess time 3d players "+alice+", "+bob+", carol@example.com")
	for _, p := range []string{alice, bob, "carol@example.com"} {
		f.reply(p, "join")
	}
	var id uint64
	for _, g := range f.tournamentPairs(1) {
		if g.white == 1 && g.black == 2 {
			id = g.game
		}
	}
	open := []string{"Bj2-j3", "Bj11-j10", "Bi2-i3", "Bi11-i10", "Bh2-h3", "Bh11-h10", "Bg2-g3", "Bg11-g10"}
	for i, m := range open {
		f.inGame([]string{alice, bob}[i%2], id, m)
	}
	from := len(f.gameMails(bob, id))
	f.inGame(alice, id, dive)
	f.inGame(bob, id, "Bc11-c10")
	f.inGame(alice, id, underwater)
	f.send(eve, f.personal(eve), "table", "tournament 1")
	return f.gameMails(bob, id)[from:], f.last(eve)
}

// TestTournamentNonInterference: in a Seachess tournament, what the
// opponent receives of a game (its standings line included) and the
// crosstable anyone may ask for are byte-identical whatever hidden moves
// were made (the digests apart, as in TestNonInterferenceByMail).
func TestTournamentNonInterference(t *testing.T) {
	a, ta := seachessTournament(t, "Sd1v-e3", "sSe3-f5")
	b, tb := seachessTournament(t, "Sd1v-c3", "sSc3-d5")
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("bob got %d and %d mails", len(a), len(b))
	}
	for i := range a {
		for _, part := range []struct{ name, x, y string }{{"text", a[i].Text, b[i].Text}, {"html", a[i].HTML, b[i].HTML}} {
			x, y := digests.ReplaceAllString(part.x, "DIGEST"), digests.ReplaceAllString(part.y, "DIGEST")
			if x != y {
				t.Errorf("bob's mail %d (%s) depends on alice's hidden moves:\n%s\n--- other history\n%s", i, part.name, x, y)
			}
		}
		f := &fixture{t: t}
		f.mustContain(a[i], "Sea: 0/0, =1st of 3")
	}
	if ta.Text != tb.Text || ta.HTML != tb.HTML {
		t.Errorf("the crosstable depends on hidden moves:\n%s\n---\n%s", ta.Text, tb.Text)
	}
}
