package daemon

// The flood test: thousands of hostile, broken and automatic mails dropped
// into the service's mailbox of a running daemon while games are played by
// mail. See TestFloodAndBadInput.

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
)

// floodWait bounds the waits of the flood test for the daemon to work through
// what was delivered (at the rate measured, 10,000 mails take well under it).
const floodWait = 2 * time.Minute

// Authentication-Results fields: the trusted server vouching for the hub's
// domain, the trusted server saying DKIM and SPF failed, and an untrusted
// server claiming a pass.
const (
	authServ    = "mx.localhost"
	authPass    = authServ + "; dkim=pass header.d=localhost"
	authFail    = authServ + "; dkim=fail header.d=localhost; spf=fail smtp.mailfrom=localhost"
	authForeign = "mx.evil.example; dkim=pass header.d=localhost"
)

// hubRig is a daemon on its embedded hub with its log captured.
type hubRig struct {
	d      *Daemon
	hub    *mailer.Hub
	cfg    config.Config
	log    *logBuffer
	cancel context.CancelFunc
	done   chan error
}

// launchHub runs a daemon on its embedded hub (ephemeral loopback ports, a
// fresh data directory; edit adjusts the configuration) until the test ends.
func launchHub(t *testing.T, edit func(*config.Config)) *hubRig {
	t.Helper()
	lg, buf := captureLogger(t)
	d, cfg, cancel, done := launch(t, func(c *config.Config) {
		quickTimeouts(c)
		if edit != nil {
			edit(c)
		}
	}, lg, quicken)
	r := &hubRig{d: d, hub: d.Hub(), cfg: cfg, log: buf, cancel: cancel, done: done}
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop ends Run, failing the test if it returns an error or does not return.
func (r *hubRig) stop(t *testing.T) {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.cancel = nil
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(faultWait):
		t.Errorf("Run did not return within %v of its context ending", faultWait)
	}
}

// boxCount is how many messages an account's mailbox on the hub holds.
func boxCount(t testing.TB, h *mailer.Hub, account, mailbox string) int {
	t.Helper()
	st, err := h.User(account).Status(mailbox, &imap.StatusOptions{NumMessages: true})
	if err != nil {
		t.Fatalf("status of %s's %s: %v", account, mailbox, err)
	}
	return int(*st.NumMessages)
}

// pendingMail is how many mails wait in the outbox, due or not; those
// that failed before are reported to logf unless it is nil (when the wait
// for an empty outbox fails, the log says which mails stayed and why).
func pendingMail(t testing.TB, st *store.Store, logf func(string, ...any)) int {
	t.Helper()
	var n int
	if err := st.View(func(tx *store.Tx) error {
		ms, err := tx.PendingMail(time.Now().Add(100*365*24*time.Hour), 0)
		n = len(ms)
		for _, m := range ms {
			if logf != nil && m.Attempts > 0 {
				logf("outbox: mail %d to %v, %d attempts: %s", m.ID, m.To, m.Attempts, m.LastError)
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// gameSnapshot is what the store holds of a game: its state, its log's
// length and chain head, and the games that exist.
func gameSnapshot(t testing.TB, st *store.Store, id uint64) string {
	t.Helper()
	var s string
	if err := st.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		recs, err := tx.Log(id)
		if err != nil {
			return err
		}
		var head store.Digest
		if len(recs) > 0 {
			head = recs[len(recs)-1].Hash
		}
		s = fmt.Sprintf("state %x, %d records, head %x, result %q", g.State, g.Records, head, g.Result)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

// allGames lists the ids of the games in the store.
func allGames(t testing.TB, st *store.Store) []uint64 {
	t.Helper()
	var ids []uint64
	if err := st.View(func(tx *store.Tx) error {
		var err error
		ids, err = tx.Games()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

// ---- the flood ----

// senderClass says how often the daemon may answer a flood sender.
type senderClass int

const (
	never       senderClass = iota // noise: never answered
	onceADay                       // only ever gets the welcome, game.WelcomesPerDay times a UTC day
	rateLimited                    // may get a reply per mail, within the rate limit
)

// floodKind is one kind of bad mail.
type floodKind struct {
	name   string
	weight int
	// authOnly: sent only when trusted_authserv is set. Without it these
	// mails (the player's address, the right token) are the player's own as
	// far as anyone can tell, and would be acted on.
	authOnly bool
	// make writes the i-th mail of this kind and names its sender and how it
	// may be answered.
	make func(f *flood, i int) (raw []byte, sender string, class senderClass)
}

// flood makes the bad mails of TestFloodAndBadInput.
type flood struct {
	rng      *rand.Rand
	trusted  bool // trusted_authserv is set: authOnly kinds are sent too
	maxBytes int64
	matches  []*match
	mallory  string   // mallory's personal address
	replays  []replay // real moves already applied, to send again
	players  []string
	seq      int // mails written so far
	replayed int // real moves sent again
}

// replay is a real move mail that can be sent again with its Message-ID.
type replay struct{ from, to, subject, body, id string }

// floodKinds are the kinds of mail in the flood, with their weights.
var floodKinds = []floodKind{
	{"junk from strangers", 12, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.stranger()
		hdr := map[string]string{}
		if f.rng.IntN(2) == 0 {
			hdr["Authentication-Results"] = authPass // else refused unauthenticated, unanswered
		}
		return f.mail(from, "games@localhost", f.junkSubject(), f.junk(true), i, hdr), from, onceADay
	}},
	{"junk to unknown tokens", 6, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.stranger()
		to := "games+" + f.token() + "@localhost"
		return f.mail(from, to, "Re: [bp-"+strconv.Itoa(1+f.rng.IntN(3))+"]", f.junk(true), i, map[string]string{"Authentication-Results": authPass}), from, onceADay
	}},
	{"junk from a registered player", 10, false, func(f *flood, i int) ([]byte, string, senderClass) {
		return f.mail("mallory@localhost", f.mallory, f.junkSubject(), f.junk(false), i, map[string]string{"Authentication-Results": authPass}), "mallory@localhost", rateLimited
	}},
	{"oversized", 3, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		body := strings.Repeat("this line pads an oversized mail to past the limit ...........\r\n", int(f.maxBytes)/64+1)
		return f.mail(from, "games@localhost", "big", "e4\r\n"+body, i, map[string]string{"Authentication-Results": authPass}), from, never
	}},
	{"broken multipart", 5, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		hdr := map[string]string{"Authentication-Results": authPass}
		var body string
		switch i % 4 {
		case 0: // boundary declared, never used
			hdr["Content-Type"] = `multipart/mixed; boundary="never-used"`
			body = "resign\r\n"
		case 1: // no closing boundary, the part cut off
			hdr["Content-Type"] = `multipart/alternative; boundary="b1"`
			body = "--b1\r\nContent-Type: text/plain\r\n\r\nresign\r\n--b1\r\nContent-Type: text/html\r\n\r\n<p>res"
		case 2: // nested past every limit
			hdr["Content-Type"] = `multipart/mixed; boundary="n0"`
			var b strings.Builder
			for d := range 40 {
				fmt.Fprintf(&b, "--n%d\r\nContent-Type: multipart/mixed; boundary=\"n%d\"\r\n\r\n", d, d+1)
			}
			b.WriteString("--n40\r\nContent-Type: text/plain\r\n\r\naccept\r\n")
			body = b.String()
		default: // no boundary parameter, garbage part headers
			hdr["Content-Type"] = "multipart/mixed"
			body = "--x\r\nContent-Type: ;;;===\r\nContent-Transfer-Encoding: ???\r\n\r\ndraw\r\n--x--\r\n"
		}
		return f.mail(from, "games@localhost", "multipart", body, i, hdr), from, onceADay
	}},
	{"bad base64 and quoted-printable", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		hdr := map[string]string{"Authentication-Results": authPass, "Content-Type": "text/plain; charset=utf-8"}
		body := "!!!not*base64@@@\r\n" + base64.StdEncoding.EncodeToString([]byte("resign"))[:5] + "\r\n===\r\n"
		hdr["Content-Transfer-Encoding"] = "base64"
		if i%2 == 1 {
			hdr["Content-Transfer-Encoding"] = "quoted-printable"
			body = "re=ZZsign =\r\n=E2=82\r\n=\r\n"
		}
		return f.mail(from, "games@localhost", "encoded", body, i, hdr), from, onceADay
	}},
	{"bad charsets", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		charsets := []string{"x-klingon", "utf-8", "utf-16", "iso-2022-jp", "us-ascii"}
		hdr := map[string]string{"Authentication-Results": authPass,
			"Content-Type": "text/plain; charset=" + charsets[i%len(charsets)]}
		body := "r\xe9sign \xff\xfe\x00\x80 \x1b$B\x1b(B e4\xc3\x28\r\n"
		return f.mail(from, "games@localhost", "=?x-klingon?Q?=FF=FE?= =?utf-8?B?!!!?=", body, i, hdr), from, onceADay
	}},
	{"header garbage", 5, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		garbage := [][]byte{
			fmt.Appendf(nil, "To: games@localhost\r\nSubject: no sender\r\nMessage-ID: <g%d@x>\r\n\r\nresign\r\n", i),
			fmt.Appendf(nil, "From: %s\r\nFrom: alice@localhost\r\nTo: games@localhost\r\n\r\nresign\r\n", from),
			[]byte("From: <<<@@@>>>\r\nTo: games@localhost\r\n\r\nresign\r\n"),
			fmt.Appendf(nil, "From: \"\x00\xff\xfe\" <%s>\r\nTo: games@localhost\r\nSubject: \x00\x01\x02\xff\r\n\r\nresign\r\n", from),
			fmt.Appendf(nil, "From: %s\r\nTo: games@localhost\r\nX-Long: %s\r\n\r\nresign\r\n", from, strings.Repeat("y", 5000)),
			fmt.Appendf(nil, "From: %s\r\nthis is not a header\r\nresign\r\n", from),
			f.bytes(300 + f.rng.IntN(700)),
			[]byte("\r\n"),
		}
		return garbage[i%len(garbage)], from, onceADay
	}},
	{"truncated", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.garbled()
		hdr := map[string]string{"Authentication-Results": authPass, "Content-Type": `multipart/alternative; boundary="cut"`}
		body := "--cut\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			base64.StdEncoding.EncodeToString([]byte("resign\r\n"+f.junk(true))) + "\r\n--cut\r\nContent-Type: text/html\r\n\r\n<p>draw</p>\r\n--cut--\r\n"
		raw := f.mail(from, "games@localhost", "truncated", body, i, hdr)
		// Cut anywhere after the From field (cutting into the address would
		// make another sender, on a domain the hub does not deliver to).
		keep := bytes.Index(raw, []byte("\r\nTo:")) + 2
		return raw[:keep+f.rng.IntN(len(raw)-keep)], from, onceADay
	}},
	{"spoofed: a player's address, another game's token", 8, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from, to, subject := f.otherSeat()
		return f.mail(from, to, subject, f.command(), i, map[string]string{"Authentication-Results": authPass}), from, onceADay
	}},
	{"spoofed: a player's address, a wrong token", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		from := f.player()
		return f.mail(from, "games+"+f.token()+"@localhost", "Re: [bp-1]", f.command(), i, map[string]string{"Authentication-Results": authPass}), from, onceADay
	}},
	{"spoofed: the right token, authentication failed", 6, true, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		return f.mail(s.p.Address, s.token, "Re: "+mailfmt.FormatTag(m.id), f.command(), i, map[string]string{"Authentication-Results": authFail}), s.p.Address, never
	}},
	{"spoofed: the right token, vouched for by an untrusted server", 3, true, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		return f.mail(s.p.Address, s.token, "Re: "+mailfmt.FormatTag(m.id), f.command(), i, map[string]string{"Authentication-Results": authForeign}), s.p.Address, never
	}},
	{"replayed real moves", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		if len(f.replays) == 0 {
			from := f.stranger()
			return f.mail(from, "games@localhost", "hi", f.junk(true), i, nil), from, onceADay // no real move yet: junk
		}
		r := f.replays[f.rng.IntN(len(f.replays))]
		f.replayed++
		return fmt.Appendf(nil, "Return-Path: <%s>\r\nAuthentication-Results: %s\r\nFrom: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n\r\n%s\r\n",
			r.from, authPass, r.from, r.to, r.subject, r.id, time.Now().Format(time.RFC1123Z), r.body), r.from, never
	}},
	{"bounces with a null Return-Path", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		from := fmt.Sprintf("bouncer%d@localhost", i%5)
		return f.mail(from, s.token, "Undelivered Mail Returned to Sender "+mailfmt.FormatTag(m.id), "resign\r\n", i,
			map[string]string{"Authentication-Results": authPass, "Return-Path": "<>"}), from, never
	}},
	{"delivery reports", 3, false, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		from := "MAILER-DAEMON@localhost"
		if i%2 == 1 {
			from = s.p.Address // a report sent as the player (a read receipt)
		}
		body := "--rep\r\nContent-Type: text/plain\r\n\r\nresign\r\n--rep\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.1.1\r\n--rep\r\nContent-Type: message/rfc822\r\n\r\nFrom: " +
			s.p.Address + "\r\nTo: " + s.token + "\r\n\r\nresign\r\n--rep--\r\n"
		return f.mail(from, s.token, "Delivery Status Notification "+mailfmt.FormatTag(m.id), body, i, map[string]string{"Authentication-Results": authPass,
			"Content-Type": `multipart/report; report-type=delivery-status; boundary="rep"`}), from, never
	}},
	{"auto-replies", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat() // the player's own vacation responder answering a game mail
		hdr := map[string]string{"Authentication-Results": authPass, "Auto-Submitted": "auto-replied"}
		if i%2 == 1 {
			delete(hdr, "Auto-Submitted")
			hdr["X-Autoreply"] = "yes"
		}
		return f.mail(s.p.Address, s.token, "Out of office: "+mailfmt.FormatTag(m.id), "I am away until Monday.\r\nresign\r\n", i, hdr), s.p.Address, onceADay
	}},
	{"mailing lists", 4, false, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		from := fmt.Sprintf("lister%d@localhost", i%5)
		hdr := map[string]string{"Authentication-Results": authPass, "List-Id": "<chess.lists.localhost>", "Precedence": "list"}
		if i%2 == 1 {
			delete(hdr, "List-Id")
			hdr["List-Unsubscribe"] = "<mailto:leave@lists.localhost>"
		}
		return f.mail(from, s.token, "[chess-list] "+mailfmt.FormatTag(m.id), "resign\r\n", i, hdr), from, never
	}},
	{"our own address", 3, false, func(f *flood, i int) ([]byte, string, senderClass) {
		s, m := f.seat()
		from := "games@localhost"
		if i%2 == 1 {
			from = s.token // a reply address of ours, as a loop brings it back
		}
		return f.mail(from, s.token, "Re: "+mailfmt.FormatTag(m.id), "resign\r\n", i, map[string]string{"Authentication-Results": authPass}), from, never
	}},
}

// mail writes a message; hdr adds or overrides header fields. Each has a
// Message-ID of its own, but every tenth has none (so the daemon makes one
// up). i is unused: kinds take it to vary their mails.
func (f *flood) mail(from, to, subject, body string, i int, hdr map[string]string) []byte {
	var b bytes.Buffer
	rp := "<" + from + ">"
	if v, ok := hdr["Return-Path"]; ok {
		rp = v
	}
	fmt.Fprintf(&b, "Return-Path: %s\r\nFrom: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n", rp, from, to, subject, time.Now().Format(time.RFC1123Z))
	f.seq++
	if f.seq%10 != 0 {
		fmt.Fprintf(&b, "Message-ID: <flood-%d@flood.localhost>\r\n", f.seq)
	}
	for k, v := range hdr {
		if k != "Return-Path" {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n")
	b.WriteString(body)
	return b.Bytes()
}

// stranger is one of 100 senders nobody knows.
func (f *flood) stranger() string { return fmt.Sprintf("stranger%02d@localhost", f.rng.IntN(100)) }

// garbled is one of 20 senders of broken mail.
func (f *flood) garbled() string { return fmt.Sprintf("garbled%02d@localhost", f.rng.IntN(20)) }

// player is one of the players' addresses.
func (f *flood) player() string { return f.players[f.rng.IntN(len(f.players))] }

// seat is a random seat of a random game.
func (f *flood) seat() (*seat, *match) {
	m := f.matches[f.rng.IntN(len(f.matches))]
	return m.seats[f.rng.IntN(2)], m
}

// otherSeat is a player's address with the token and tag of a seat in a
// game they do not play in.
func (f *flood) otherSeat() (from, to, subject string) {
	for {
		s, m := f.seat()
		from = f.player()
		if from != m.seats[0].p.Address && from != m.seats[1].p.Address {
			return from, s.token, "Re: " + mailfmt.FormatTag(m.id)
		}
	}
}

// token is a random token that is nobody's.
func (f *flood) token() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := make([]byte, 26)
	for i := range b {
		b[i] = alphabet[f.rng.IntN(len(alphabet))]
	}
	return string(b)
}

// command is a line that would change a game if it were acted on.
func (f *flood) command() string {
	cmds := []string{"resign", "draw", "accept", "e4", "d5", "Qh4#", "h6", "a6", "Nf3", "adjudicate 1 1-0 spoofed", "decline"}
	return cmds[f.rng.IntN(len(cmds))] + "\r\n"
}

// junk is random text; with commands, some of its lines are commands and
// moves (harmless without a valid token), without, none can be read as one.
func (f *flood) junk(commands bool) string {
	words := []string{"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "eiusmod",
		"tempor", "incididunt", "labore", "dolore", "magna", "aliqua", "quis", "nostrud", "exercitation", "ullamco"}
	var b strings.Builder
	for range 1 + f.rng.IntN(8) {
		if commands && f.rng.IntN(3) == 0 {
			b.WriteString(strings.TrimSpace(f.command()))
			if f.rng.IntN(2) == 0 {
				b.WriteString("\r\nnew chess vs alice@localhost as white")
			}
		} else {
			for w := range 6 + f.rng.IntN(8) {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[f.rng.IntN(len(words))])
			}
		}
		b.WriteString("\r\n")
	}
	return b.String()
}

// junkSubject is a random subject, sometimes with a game tag.
func (f *flood) junkSubject() string {
	s := []string{"hello", "Re: your game", "WIN A PRIZE", "", "Re: [bp-1]", "Fwd: [bp-3] board", "=?utf-8?B?w6TDtsO8?="}
	return s[f.rng.IntN(len(s))]
}

// bytes are n random bytes.
func (f *flood) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(f.rng.Uint32())
	}
	return b
}

// pick chooses a kind by weight.
func (f *flood) pick() *floodKind {
	weight := func(k *floodKind) int {
		if k.authOnly && !f.trusted {
			return 0
		}
		return k.weight
	}
	total := 0
	for i := range floodKinds {
		total += weight(&floodKinds[i])
	}
	n := f.rng.IntN(total)
	for i := range floodKinds {
		if n < weight(&floodKinds[i]) {
			return &floodKinds[i]
		}
		n -= weight(&floodKinds[i])
	}
	panic("unreachable")
}

// floodCount is how many bad mails each run of TestFloodAndBadInput
// delivers: 10,000, or BOTTLEPOST_FLOOD=N, or 1,000 with -short (the quick
// loop: the same kinds and checks, a tenth of the mail). On the 2-core
// reference machine the 10,000 take 2 to 7 s a run (26 s with -race), far
// under the minute above which they would have been kept for a long mode:
// the default run has them all.
func floodCount(t *testing.T) int {
	t.Helper()
	if v := os.Getenv("BOTTLEPOST_FLOOD"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 8 {
			t.Fatalf("BOTTLEPOST_FLOOD=%q: want a number of mails, at least 8", v)
		}
		return n
	}
	if testing.Short() {
		return 1000
	}
	return 10000
}

// TestFloodAndBadInput drops 10,000 bad mails (see floodCount: they take
// seconds, so the default run has them all) straight into the service's
// mailbox of a running daemon (embedded hub, limits.max_message_bytes
// 64 KiB), in 8 rounds, and in the middle of each round the players of two
// games send a real move each by SMTP. It runs twice: with
// trusted_authserv set, and without (the default), where the spoofs that
// only authentication can tell from the player are left out.
//
// The bad mails are junk, oversized, malformed MIME (broken multipart, bad
// base64 and quoted-printable, bad charsets, header garbage, truncated),
// spoofed senders (a player's address with another game's token or a
// wrong token; with trusted_authserv, the right token with failing or
// untrusted Authentication-Results), replays of real moves, bounces,
// delivery reports, auto-replies, mailing-list mail and mail from the
// service's own addresses; many carry commands ("resign", moves, "accept")
// for the games in progress.
//
// It asserts: every real move is applied exactly once and nothing else
// changed any game (the logs hold exactly the real moves and the records
// of the games' start; a third game nobody moved in is as before, state,
// log and chain head; no game was created); the opponents were told of
// every move; every mail was handled (the mailbox is empty, every one is
// in the processed folder, none was kept for retry); the log names what
// each kind of bad mail was; and each flood sender got at most what the
// configuration allows, counted by Message-ID (delivery is at least
// once): senders of noise none, strangers who can only ever get the
// welcome at most game.WelcomesPerDay a UTC day, and the players the
// service knows (in whose names the spoofs are written) and the registered
// player who sends junk to her personal address at most replies_per_hour
// at once plus one per hour/replies_per_hour since, and the over-limit
// notice once an hour (and mallory at least the burst, so the limit is not
// stricter than configured).
func TestFloodAndBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted bool
	}{
		{"trusted_authserv set", true},
		{"no trusted_authserv", false},
	} {
		t.Run(tc.name, func(t *testing.T) { floodRun(t, floodCount(t), tc.trusted) })
	}
}

// floodRun is one run of TestFloodAndBadInput: n bad mails, with or
// without trusted_authserv.
func floodRun(t *testing.T, n int, trusted bool) {
	r := launchHub(t, func(c *config.Config) {
		if trusted {
			c.Service.TrustedAuthServ = authServ
		}
		c.Limits.MaxMessageBytes = 64 << 10
	})
	st := r.d.Store()
	setupStart := time.Now()
	auth := map[string]string{"Authentication-Results": authPass}
	p := func(name string) *Player { return NewPlayer(r.hub, name, r.cfg.Hub.Password.Value) }
	alice, bob, carol, dave, erin, frank, mallory := p("alice"), p("bob"), p("carol"), p("dave"), p("erin"), p("frank"), p("mallory")
	games := []*match{newMatch(t, st, alice, bob, auth), newMatch(t, st, carol, dave, auth), newMatch(t, st, erin, frank, auth)}
	playing, control := games[:2], games[2]
	for _, m := range games {
		m.play(t, st, 2)
	}
	mustSend(t, mallory, Mail{To: "games@localhost", Subject: "hi", Body: "hi", Headers: auth})
	malloryAddr := mustAwait(t, mallory, "your personal address").ReplyTo
	waitFor(t, faultWait, "the set-up mail was not all moved to the processed folder", func() bool {
		return boxCount(t, r.hub, "games", "INBOX") == 0
	})
	controlBefore := gameSnapshot(t, st, control.id)
	gamesBefore := fmt.Sprint(allGames(t, st))

	seed := uint64(time.Now().UnixNano())
	t.Logf("flood of %d mails, seed %d", n, seed)
	f := &flood{rng: rand.New(rand.NewPCG(seed, 0xf100d)), trusted: trusted, maxBytes: r.cfg.Limits.MaxMessageBytes, matches: games,
		mallory: malloryAddr, players: []string{alice.Address, bob.Address, carol.Address, dave.Address, erin.Address, frank.Address}}
	classOf := map[string]senderClass{} // the most answers each flood sender may get
	kinds := map[string]int{}
	delivered := boxCount(t, r.hub, "games", r.cfg.IMAP.ProcessedFolder) // mail handled before the flood
	deliver := func(k int) {
		for range k {
			kind := f.pick()
			raw, sender, class := kind.make(f, kinds[kind.name])
			kinds[kind.name]++
			if c, ok := classOf[sender]; !ok || class > c {
				classOf[sender] = class
			}
			if err := r.hub.Deliver([]string{"games@localhost"}, raw); err != nil {
				t.Fatal(err)
			}
			delivered++
		}
	}

	const rounds = 8
	floodStart := time.Now()
	for round := range rounds {
		chunk := n/rounds + boolInt(round < n%rounds)
		deliver(chunk / 2)
		for _, m := range playing { // a real move each, in the middle of the round
			m.send(t, plies[len(m.sent)])
			s := m.seats[(len(m.sent)-1)%2]
			delivered++
			f.replays = append(f.replays, replay{from: s.p.Address, to: s.token, subject: "Re: " + mailfmt.FormatTag(m.id) + " your move",
				body: m.sent[len(m.sent)-1], id: m.ids[len(m.ids)-1]})
		}
		deliver(chunk - chunk/2)
		for _, m := range playing {
			waitFor(t, floodWait, fmt.Sprintf("game %d: the moves sent %q are not all on the log", m.id, m.sent), func() bool {
				return len(moves(t, st, m.id)) >= len(m.sent)
			})
		}
	}
	waitFor(t, floodWait, "the service's mailbox was not emptied", func() bool {
		return boxCount(t, r.hub, "games", "INBOX") == 0
	})
	took := time.Since(floodStart)
	if !within(floodWait, func() bool { return pendingMail(t, st, nil) == 0 }) {
		pendingMail(t, st, t.Logf)
		t.Fatalf("after %v: the outbox was not emptied", floodWait)
	}
	end := time.Now()

	// Every mail was handled (moved to the processed folder), none kept for retry.
	if got := boxCount(t, r.hub, "games", r.cfg.IMAP.ProcessedFolder); got != delivered {
		t.Errorf("%d mails in the processed folder, want the %d delivered", got, delivered)
	}
	if lines := r.log.lines(0, "mail kept for retry"); len(lines) > 0 {
		t.Errorf("mail kept for retry during the flood:\n%s", strings.Join(lines[:min(5, len(lines))], "\n"))
	}

	// The games: exactly the real moves, each once; the control game untouched.
	for _, m := range playing {
		m.checkExactlyOnce(t, st)
	}
	control.checkExactlyOnce(t, st)
	if after := gameSnapshot(t, st, control.id); after != controlBefore {
		t.Errorf("game %d, in which nobody moved during the flood, changed:\nbefore %s\nafter  %s", control.id, controlBefore, after)
	}
	if after := fmt.Sprint(allGames(t, st)); after != gamesBefore {
		t.Errorf("games before the flood %s, after %s", gamesBefore, after)
	}
	// Every mover got the receipt and every opponent was told: the forged
	// mail in the players' names earned no reply, so it spent none of their
	// reply allowance (game.Incoming.Allow is asked only for a reply).
	for _, m := range playing {
		for pl, wants := range m.expectedReplies() {
			awaitAll(t, pl, wants, faultWait)
		}
	}

	// The log says what each kind of bad mail was.
	wantLog := [][]string{
		{"mail dropped: unreadable"},
		{"message too large; not fetched"},
		{"mail dropped: never answered", "kind=bounce"},
		{"mail dropped: never answered", "kind=auto-submitted"},
		{"mail dropped: never answered", "kind=mailing-list"},
		{"mail dropped: never answered", "kind=loop"},
		{"first mail answered with the welcome", "the sender is not the token's player"}, // a player's address: answered, within the hourly allowance
		{"message refused", "unknown token"},
		{"mail handled", "duplicate=true"},
	}
	if trusted {
		wantLog = append(wantLog, []string{"message refused", "authentication: the DKIM signature of localhost failed"},
			[]string{"message refused", "authentication: no Authentication-Results from " + authServ})
	}
	for _, want := range wantLog {
		if n >= 1000 && r.log.count(0, want...) == 0 { // with fewer mails, a kind may not come up
			t.Errorf("no log line with %q", want)
		}
	}
	if got, want := r.log.count(0, "message too large; not fetched"), kinds["oversized"]; got != want {
		t.Errorf("%d oversized mails logged, %d delivered", got, want)
	}
	if got, want := r.log.count(0, "mail handled", "duplicate=true"), f.replayed; got < want {
		t.Errorf("%d duplicates logged, want at least the %d replays", got, want)
	}

	// Answers to the flood's senders, against what the configuration allows.
	days := 0
	for d := setupStart.UTC().Truncate(24 * time.Hour); !d.After(end.UTC()); d = d.Add(24 * time.Hour) {
		days++
	}
	burst, every := r.cfg.Limits.RepliesPerHour, time.Hour/time.Duration(r.cfg.Limits.RepliesPerHour)
	limited := burst + int(end.Sub(setupStart)/every)
	notices := 1 + int(end.Sub(setupStart)/time.Hour)
	players := map[string]*Player{}
	for _, pl := range []*Player{alice, bob, carol, dave, erin, frank} {
		players[pl.Address] = pl
	}
	// Answers are counted by Message-ID: delivery is at least once, and on
	// a loaded machine a session cut after the server took a mail sends it
	// again (the same mail, its Message-ID unchanged); the service's limits
	// count mails made, not deliveries.
	total, bound, redelivered := 0, 0, 0
	for sender, class := range classOf {
		var pl *Player
		untagged := false
		if known, ok := players[sender]; ok {
			// A player's game mail is for the real moves; any other mail (a
			// welcome) answered the flood.
			// The service knows them: the bare address answers them within
			// the hourly allowance, not the strangers' daily welcomes.
			pl, untagged = known, true
			class = rateLimited
		} else {
			account, _, _ := strings.Cut(sender, "@")
			account, _, _ = strings.Cut(account, "+")
			if account == "games" {
				continue // the service itself: nothing ever goes to its own mailbox but the flood
			}
			pl = p(strings.ToLower(account))
		}
		if _, err := pl.Fetch(); err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		var seen []string // each answer: its subject and Message-ID, for a failure's message
		for _, rm := range pl.Inbox {
			if _, tagged := mailfmt.ParseTag(rm.Msg.Subject); untagged && tagged {
				continue
			}
			if ids[rm.Msg.MessageID] {
				redelivered++
			}
			ids[rm.Msg.MessageID] = true
			seen = append(seen, fmt.Sprintf("%q <%s>", rm.Msg.Subject, rm.Msg.MessageID))
		}
		got := len(ids)
		// The rate-limited sender also gets the over-limit notice, once an hour.
		allowed := map[senderClass]int{never: 0, onceADay: min(days*game.WelcomesPerDay, limited), rateLimited: limited + notices}[class]
		if got > allowed {
			t.Errorf("%s got %d answers, at most %d allowed (%v):\n  %s", sender, got, allowed, class, strings.Join(seen, "\n  "))
		}
		total += got
		bound += allowed
	}
	if redelivered > 0 {
		t.Logf("%d answers were delivered twice (the same Message-ID: at-least-once delivery), counted once", redelivered)
	}
	malloryGot := boxCount(t, r.hub, "mallory", "INBOX")
	if kinds["junk from a registered player"] >= burst && malloryGot < burst {
		t.Errorf("mallory got %d replies to %d mails: the rate limit allows %d at once", malloryGot, kinds["junk from a registered player"], burst)
	}
	receipts, wantReceipts := 0, 0
	for _, m := range playing {
		for i, mv := range m.sent {
			wantReceipts++
			if len(mailsWith(m.seats[i%2].p, "Your move "+mv+" was accepted.")) > 0 {
				receipts++
			}
		}
	}
	if receipts != wantReceipts {
		t.Errorf("%d of %d receipts reached the movers", receipts, wantReceipts)
	}
	t.Logf("%d bad mails and %d real moves handled in %v (%.0f mails/s); %d senders; answers to them %d (allowed at most %d: one a UTC day per sender over %d day(s), %d to the rate-limited one); mallory %d replies to %d junk mails; %d of %d receipts reached the movers",
		n, 2*rounds, took.Round(time.Millisecond), float64(n)/took.Seconds(), len(classOf), total, bound, days, limited,
		malloryGot, kinds["junk from a registered player"], receipts, wantReceipts)
	for _, k := range floodKinds {
		t.Logf("  %5d  %s", kinds[k.name], k.name)
	}
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// String names a sender class in failure messages.
func (c senderClass) String() string {
	return [...]string{"never answered", "welcome once a day", "rate-limited"}[c]
}
