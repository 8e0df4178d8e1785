package web_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/web"
)

const (
	service = "games@bottlepost.test"
	alice   = "alice@example.org"
	bob     = "bob@example.net"
	carol   = "carol@example.com"
)

// club is a real game service on a real store in a temporary directory,
// with a fixed clock and seeded randomness, played by mail through Handle
// as a mail client would, and served by the web view.
type club struct {
	t       testing.TB
	svc     *game.Service
	st      *store.Store
	now     time.Time
	seq     int
	replyTo map[string]string // the newest mail's Reply-To per recipient
	subject map[string]string
	game    map[string]string // the newest Reply-To per recipient and game: "addr#N"
	raw     map[string]string // the newest mail per recipient, as queued
	srv     *web.Server
}

func newClub(t testing.TB) *club {
	t.Helper()
	dir := t.TempDir()
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i * 5)
	}
	if err := os.WriteFile(filepath.Join(dir, "bp.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "bp.db"), store.Options{KeyFile: filepath.Join(dir, "bp.key")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &club{t: t, st: st, now: time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC),
		replyTo: map[string]string{}, subject: map[string]string{}, game: map[string]string{}, raw: map[string]string{}}
	c.svc, err = game.New(game.Config{Address: service, VacationDays: 30}, game.Options{Store: st, Clock: func() time.Time { return c.now },
		Rand: rand.NewChaCha8([32]byte{2, 3})})
	if err != nil {
		t.Fatal(err)
	}
	c.srv = web.New(c.svc, web.Options{Address: service})
	return c
}

// send hands the service one mail and reads back what it queued.
func (c *club) send(from, name, to, subject string, lines ...string) {
	c.t.Helper()
	c.seq++
	c.now = c.now.Add(time.Minute)
	_, err := c.svc.Handle(&game.Incoming{MessageID: fmt.Sprintf("m%d@client.test", c.seq), From: from, FromName: name,
		Recipients: []string{to}, Subject: subject, Lines: lines})
	if err != nil {
		c.t.Fatalf("Handle: %v", err)
	}
	err = c.st.Update(func(tx *store.Tx) error {
		mails, err := tx.PendingMail(c.now.Add(time.Hour), 1000)
		if err != nil {
			return err
		}
		for _, m := range mails {
			msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
			if err != nil {
				return err
			}
			to, _ := mail.ParseAddress(msg.Header.Get("To"))
			if to != nil {
				c.raw[to.Address] = string(m.Data)
			}
			if rt, err := mail.ParseAddress(msg.Header.Get("Reply-To")); err == nil && to != nil {
				c.replyTo[to.Address] = rt.Address
				subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
				c.subject[to.Address] = subj
				if tag := gameTag.FindStringSubmatch(subj); tag != nil {
					c.game[to.Address+"#"+tag[1]] = rt.Address
				}
			}
			if err := tx.MarkSent(m.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		c.t.Fatal(err)
	}
}

var gameTag = regexp.MustCompile(`\[bp-([0-9]+)\]`)

// reply answers the newest mail to from, as a mail client does.
func (c *club) reply(from string, lines ...string) {
	c.t.Helper()
	to, ok := c.replyTo[from]
	if !ok {
		c.t.Fatalf("%s has no mail to answer", from)
	}
	c.send(from, "", to, "Re: "+c.subject[from], lines...)
}

// names are the display names the players' mail carries.
var names = map[string]string{alice: "Alice Liddell", bob: "Bob", carol: ""}

// start has white challenge black to a game of variant and black accept.
func (c *club) start(variant, white, black string) {
	c.t.Helper()
	if _, ok := c.replyTo[white]; !ok {
		c.send(white, names[white], service, "hello", "hello")
	}
	c.send(white, names[white], c.replyTo[white], "new game", "new "+variant+" vs "+black+" as white")
	c.reply(black, "accept")
}

// plies is how many moves game id has on record.
func (c *club) plies(id uint64) int {
	c.t.Helper()
	g, err := c.svc.PublicGame(id)
	if err != nil {
		c.t.Fatalf("game %d: %v", id, err)
	}
	return g.Plies
}

// move sends a move of game id from player and fails the test unless the
// game took it.
func (c *club) move(id uint64, player, text string) {
	c.t.Helper()
	before := c.plies(id)
	to, ok := c.game[fmt.Sprintf("%s#%d", player, id)]
	if !ok {
		c.t.Fatalf("%s has no mail of game %d to answer", player, id)
	}
	c.send(player, "", to, fmt.Sprintf("Re: [bp-%d]", id), text)
	if after := c.plies(id); after != before+1 {
		c.t.Fatalf("game %d: %s's move %s was not taken (%d moves before, %d after); the answer:\n%s", id, player, text, before, after, c.raw[player])
	}
}

// get fetches a page from the web view.
func (c *club) get(target string) *httptest.ResponseRecorder {
	c.t.Helper()
	w := httptest.NewRecorder()
	c.srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	return w
}

// randomGame plays plies random legal moves of variant from the start of a
// game the club started, alternating between the players, and returns the
// texts played. The moves are chosen on a copy of the rules state kept
// here, and sent by mail.
func (c *club) randomGame(id uint64, variant string, white, black string, plies int, r *rand.Rand) []string {
	c.t.Helper()
	v, err := variants.Lookup(variant)
	if err != nil {
		c.t.Fatal(err)
	}
	s, err := v.New(rules.Options{})
	if err != nil {
		c.t.Fatal(err)
	}
	var played []string
	for range plies {
		moves := s.Moves()
		r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		var next rules.State
		text := ""
		for _, m := range moves {
			if !strings.ContainsAny(s.Format(m), "0123456789") {
				// Seachess's aircraft return "Aa-A" (S7.3) names no square,
				// and the mail parser does not take it for a move yet.
				continue
			}
			n, _, err := s.Apply(m)
			if err == nil && !n.Outcome().Over() {
				next, text = n, s.Format(m)
				break
			}
		}
		if next == nil {
			break
		}
		player := white
		if s.ToMove() == rules.Black {
			player = black
		}
		c.move(id, player, text)
		played = append(played, text)
		s = next
	}
	return played
}

func body(w *httptest.ResponseRecorder) string {
	b, _ := io.ReadAll(w.Result().Body)
	return string(b)
}

// rulesOptions are the options the service starts Chess games with (no
// random setup).
func rulesOptions() rules.Options { return rules.Options{} }

// move0 sends a command to game id that is not a move (resign, draw).
func (c *club) move0(id uint64, player, text string) {
	c.t.Helper()
	to, ok := c.game[fmt.Sprintf("%s#%d", player, id)]
	if !ok {
		c.t.Fatalf("%s has no mail of game %d to answer", player, id)
	}
	c.send(player, "", to, fmt.Sprintf("Re: [bp-%d]", id), text)
}
