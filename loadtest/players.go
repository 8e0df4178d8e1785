package loadtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/mail"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
)

// delivery is a mail the hub delivered to one recipient.
type delivery struct {
	at        time.Time
	raw       []byte
	subject   string
	inReplyTo string
	replyTo   string
	game      uint64 // from the subject's tag; 0 without one
	to        string // set by leftover
}

// router hands the hub's deliveries to whoever waits for a recipient's
// mail, and counts what it saw.
type router struct {
	mu     sync.Mutex
	boxes  map[string]*box
	seen   map[string]int // recipient + Message-ID → deliveries
	counts map[string]int // recipient local part prefix → deliveries
}

// box is one recipient's unread mail.
type box struct {
	mail  []*delivery
	ready chan struct{} // signalled when mail arrives
}

func newRouter() *router {
	return &router{boxes: map[string]*box{}, seen: map[string]int{}, counts: map[string]int{}}
}

func (r *router) box(addr string) *box {
	b, ok := r.boxes[addr]
	if !ok {
		b = &box{ready: make(chan struct{}, 1)}
		r.boxes[addr] = b
	}
	return b
}

// deliver is the hub's Delivered hook: headers only, no waiting.
func (r *router) deliver(rcpts []string, raw []byte) {
	now := time.Now()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return
	}
	d := &delivery{at: now, raw: raw, subject: m.Header.Get("Subject"),
		inReplyTo: strings.Trim(m.Header.Get("In-Reply-To"), "<> "), replyTo: m.Header.Get("Reply-To")}
	if a, err := mail.ParseAddress(d.replyTo); err == nil {
		d.replyTo = a.Address
	}
	d.game, _ = mailfmt.ParseTag(d.subject)
	id := m.Header.Get("Message-Id")
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rc := range rcpts {
		rc = strings.ToLower(rc)
		if strings.HasPrefix(rc, "games") {
			continue // the service's own mailbox: a player's submission
		}
		r.seen[rc+" "+id]++
		if r.seen[rc+" "+id] > 1 {
			continue // sent again after a kill: counted, not news
		}
		local, _, _ := strings.Cut(rc, "@")
		r.counts[strings.TrimRight(local, "0123456789")]++
		b := r.box(rc)
		b.mail = append(b.mail, d)
		select {
		case b.ready <- struct{}{}:
		default:
		}
	}
}

// await takes the first mail to addr that match accepts, waiting up to
// timeout. Mail it does not accept stays for later waits.
func (r *router) await(addr string, timeout time.Duration, what string, match func(*delivery) bool) (*delivery, error) {
	deadline := time.Now().Add(timeout)
	for {
		r.mu.Lock()
		b := r.box(addr)
		for i, d := range b.mail {
			if match(d) {
				b.mail = append(b.mail[:i:i], b.mail[i+1:]...)
				r.mu.Unlock()
				return d, nil
			}
		}
		r.mu.Unlock()
		left := time.Until(deadline)
		if left <= 0 {
			return nil, fmt.Errorf("loadtest: %s got no %s within %v", addr, what, timeout)
		}
		select {
		case <-b.ready:
		case <-time.After(min(left, 200*time.Millisecond)):
		}
	}
}

// leftover lists the mails nobody took to recipients whose local part,
// without its trailing digits, is one of names.
func (r *router) leftover(names ...string) []*delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*delivery
	for addr, b := range r.boxes {
		local, _, _ := strings.Cut(addr, "@")
		if slices.Contains(names, strings.TrimRight(local, "0123456789")) {
			for _, d := range b.mail {
				d.to = addr
				out = append(out, d)
			}
		}
	}
	return out
}

// duplicates counts mails delivered more than once to the same recipient.
func (r *router) duplicates() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.seen {
		n += c - 1
	}
	return n
}

// countTo counts the mails delivered to recipients whose local part,
// without its trailing digits, is one of names.
func (r *router) countTo(names ...string) map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for _, n := range names {
		out[n] = r.counts[n]
	}
	return out
}

// text is the plain-text body of a delivered mail.
func (d *delivery) text() string {
	m, err := mailfmt.Parse(bytes.NewReader(d.raw), 1<<24)
	if err != nil {
		return ""
	}
	return m.Body
}

// submitter sends the players' mail over a few long-lived SMTP sessions,
// or, with a real IMAP server for the service's mailbox, delivers it there
// with APPEND over a few IMAP sessions.
type submitter struct {
	addr   string
	conns  chan *smtp.Client
	imap   *IMAPServer
	imapcs chan *imapclient.Client
	lmtpcs chan *smtp.Client // with imap.LMTP: delivery sessions instead of imapcs
}

func newSubmitter(addr string, n int, imapServer *IMAPServer) (*submitter, error) {
	s := &submitter{addr: addr, imap: imapServer}
	var err error
	if s.conns, err = openPool(n, s.dial); err == nil && imapServer != nil {
		if imapServer.LMTP != "" {
			s.lmtpcs, err = openPool(n, s.dialLMTP)
		} else {
			s.imapcs, err = openPool(n, s.dialIMAP)
		}
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// openPool is n sessions from dial, in a channel to take them from; when
// one fails, those opened are left in the channel for close.
func openPool[T any](n int, dial func() (T, error)) (chan T, error) {
	pool := make(chan T, n)
	for range n {
		c, err := dial()
		if err != nil {
			return pool, err
		}
		pool <- c
	}
	return pool, nil
}

func (s *submitter) dialIMAP() (*imapclient.Client, error) {
	c, err := imapclient.DialInsecure(s.imap.Addr, nil)
	if err != nil {
		return nil, fmt.Errorf("loadtest: imap: %w", err)
	}
	if err := c.Login(s.imap.Username, s.imap.Password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("loadtest: imap: login as %s: %w", s.imap.Username, err)
	}
	return c, nil
}

func (s *submitter) dialLMTP() (*smtp.Client, error) {
	conn, err := net.DialTimeout("tcp", s.imap.LMTP, 10*time.Second)
	if err != nil {
		return nil, fmt.Errorf("loadtest: lmtp: %w", err)
	}
	c := smtp.NewClientLMTP(conn)
	if err := c.Hello("players.test"); err != nil {
		c.Close()
		return nil, fmt.Errorf("loadtest: lmtp: %w", err)
	}
	return c, nil
}

// lmtpMail delivers a message for the service over LMTP, with one retry
// on a fresh session.
func (s *submitter) lmtpMail(from string, msg []byte) error {
	return sendOn(s.lmtpcs, s.dialLMTP, from, service, msg)
}

// sendOn sends a message on a session taken from pool and gives the
// session back; a session that fails is closed and the message tried once
// more on a fresh one from dial (a failed dial leaves the pool one
// session short: the run fails on the error anyway).
func sendOn(pool chan *smtp.Client, dial func() (*smtp.Client, error), from, to string, msg []byte) error {
	c := <-pool
	err := c.SendMail(from, []string{to}, bytes.NewReader(msg))
	if err != nil {
		c.Close()
		if c, err = dial(); err == nil {
			err = c.SendMail(from, []string{to}, bytes.NewReader(msg))
		}
	}
	if c != nil {
		pool <- c
	}
	return err
}

// appendMail delivers a message into the service's INBOX on the IMAP
// server (over LMTP where the server's LMTP listener is given), with one
// retry on a fresh session.
func (s *submitter) appendMail(msg []byte) error {
	if s.lmtpcs != nil {
		return s.lmtpMail("players@players.test", msg)
	}
	try := func(c *imapclient.Client) error {
		cmd := c.Append("INBOX", int64(len(msg)), nil)
		if _, err := cmd.Write(msg); err != nil {
			return err
		}
		if err := cmd.Close(); err != nil {
			return err
		}
		_, err := cmd.Wait()
		return err
	}
	c := <-s.imapcs
	err := try(c)
	if err != nil {
		c.Close()
		if c, err = s.dialIMAP(); err == nil {
			err = try(c)
		}
	}
	if c != nil {
		s.imapcs <- c
	}
	return err
}

// toService delivers mail for the service: into its IMAP mailbox when the
// load runs against a real IMAP server, else through the hub.
func (s *submitter) toService(hub *mailer.Hub, msg []byte) error {
	if s.imap != nil {
		return s.appendMail(msg)
	}
	return hub.Deliver([]string{service}, msg)
}

func (s *submitter) dial() (*smtp.Client, error) {
	c, err := smtp.Dial(s.addr)
	if err != nil {
		return nil, fmt.Errorf("loadtest: smtp: %w", err)
	}
	if err := c.Hello("players.test"); err != nil {
		c.Close()
		return nil, fmt.Errorf("loadtest: smtp: %w", err)
	}
	if err := c.Auth(sasl.NewPlainClient("", "players@"+domain, password)); err != nil {
		c.Close()
		return nil, fmt.Errorf("loadtest: smtp: %w", err)
	}
	return c, nil
}

func (s *submitter) close() {
	quit := func(c *smtp.Client) { c.Quit(); c.Close() }
	drain(s.lmtpcs, quit)
	drain(s.imapcs, func(c *imapclient.Client) { c.Logout().Wait(); c.Close() })
	drain(s.conns, quit)
}

// drain ends every session waiting in pool (none when pool is nil).
func drain[T any](pool chan T, end func(T)) {
	for pool != nil {
		select {
		case c := <-pool:
			end(c)
		default:
			return
		}
	}
}

// send submits a message from a player and returns its Message-ID.
func (s *submitter) send(from, to, subject, inReplyTo, body string) (string, error) {
	var rnd [8]byte
	rand.Read(rnd[:])
	id := hex.EncodeToString(rnd[:]) + "@players.test"
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: <%s>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n",
		from, to, subject, time.Now().Format(time.RFC1123Z), id)
	if inReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", inReplyTo, inReplyTo)
	}
	b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(body, "\n", "\r\n") + "\r\n")
	return id, s.raw(from, to, b.Bytes())
}

// raw submits a ready message, with one retry on a fresh connection.
func (s *submitter) raw(from, to string, msg []byte) error {
	if s.imap != nil && strings.HasPrefix(strings.ToLower(to), "games") {
		return s.appendMail(msg)
	}
	return sendOn(s.conns, s.dial, from, to, msg)
}

// game is one game as its two players know it.
type game struct {
	i        int
	id       uint64
	addr     [2]string // white's and black's addresses
	personal string    // white's personal address, which her challenges go to
	token    [2]string // where each side sends its moves
	state    rules.State
	moves    []string // the moves played, as sent
	resigned bool     // the game ended by resignation (Config.Resign)
	rnd      *mrand.Rand
}

// over reports whether the game has ended.
func (g *game) over() bool { return g.resigned || g.state.Outcome().Over() }

// setUp creates game i by mail, as two people would: white asks for her
// personal address, challenges black, black accepts.
func (r *run) setUp(i int) (*game, error) {
	g := &game{i: i, addr: [2]string{fmt.Sprintf("w%d@%s", i, domain), fmt.Sprintf("b%d@%s", i, domain)},
		rnd: mrand.New(mrand.NewPCG(r.cfg.Seed, uint64(i)))}
	id, err := r.subs.send(g.addr[0], service, "hello", "", "help")
	if err != nil {
		return nil, err
	}
	welcome, err := r.router.await(g.addr[0], r.cfg.Timeout, "welcome", func(d *delivery) bool { return d.inReplyTo == id })
	if err != nil {
		return nil, err
	}
	g.personal = welcome.replyTo
	return g, r.challenge(g, 0)
}

// rematch sets up the next game of the players of g, who has just ended:
// the same two, white challenging again, so that their ratings go on from
// the last game's.
func (r *run) rematch(g *game) (*game, error) {
	next := &game{i: g.i, addr: g.addr, personal: g.personal, rnd: g.rnd}
	return next, r.challenge(next, g.id)
}

// challenge starts g by mail: white challenges black from her personal
// address, black accepts. The invitation is the first mail to black about a
// game after the game prev (0 for none) that the two played before.
func (r *run) challenge(g *game, prev uint64) error {
	t := r.cfg.Timeout
	id, err := r.subs.send(g.addr[0], g.personal, "new game", "", fmt.Sprintf("new %s vs %s as white time 30d", r.v.ID(), g.addr[1]))
	if err != nil {
		return err
	}
	invitation, err := r.router.await(g.addr[1], t, "invitation", func(d *delivery) bool { return d.game > prev })
	if err != nil {
		return err
	}
	g.id = invitation.game
	if _, err := r.router.await(g.addr[0], t, "challenge receipt", func(d *delivery) bool { return d.inReplyTo == id }); err != nil {
		return err
	}
	id, err = r.subs.send(g.addr[1], invitation.replyTo, "Re: "+invitation.subject, "", "accept")
	if err != nil {
		return err
	}
	for side := range 2 {
		begun, err := r.router.await(g.addr[side], t, "start of the game", func(d *delivery) bool { return d.game == g.id })
		if err != nil {
			return err
		}
		g.token[side] = begun.replyTo
	}
	if g.token[0] == "" || g.token[1] == "" {
		return fmt.Errorf("loadtest: game %d began without reply addresses", g.id)
	}
	g.state, err = r.v.New(rules.Options{})
	return err
}

// play moves in g, one side then the other, until the budget of moves is
// spent or the game is over. Each move waits for its two replies.
func (r *run) play(g *game) error {
	for !g.over() {
		if r.cfg.Resign > 0 && len(g.moves) >= r.cfg.Resign {
			return r.resign(g)
		}
		if r.budget.Add(-1) < 0 {
			return nil
		}
		if r.pace != nil {
			<-r.pace
		}
		moves := g.state.Moves()
		if len(moves) == 0 {
			return nil
		}
		var next rules.State
		var text string
		for _, k := range g.rnd.Perm(len(moves)) {
			s, _, err := g.state.Apply(moves[k])
			if err == nil {
				next, text = s, g.state.Format(moves[k])
				break
			}
		}
		if next == nil {
			return nil
		}
		mover := int(g.state.ToMove())
		start := time.Now()
		id, err := r.subs.send(g.addr[mover], g.token[mover], fmt.Sprintf("Re: %s move", mailfmt.FormatTag(g.id)), "", text)
		if err != nil {
			return err
		}
		receipt, err := r.router.await(g.addr[mover], r.cfg.Timeout, "receipt for "+text, func(d *delivery) bool { return d.inReplyTo == id })
		if err != nil {
			return err
		}
		// The opponent hears of the move only when it was played; if not,
		// the receipt says why.
		update, err := r.router.await(g.addr[1-mover], r.cfg.Timeout, "news of "+text, func(d *delivery) bool { return d.game == g.id })
		if err != nil {
			return fmt.Errorf("%w; the mover's receipt said:\n%s", err, receipt.text())
		}
		last := later(receipt.at, update.at)
		r.latMu.Lock()
		r.lat = append(r.lat, last.Sub(start))
		r.latMu.Unlock()
		g.state = next
		g.moves = append(g.moves, text)
		r.played.Add(1)
	}
	return nil
}

// resign ends g: the side to move resigns, and both players get the final
// mail.
func (r *run) resign(g *game) error {
	mover := int(g.state.ToMove())
	id, err := r.subs.send(g.addr[mover], g.token[mover], fmt.Sprintf("Re: %s move", mailfmt.FormatTag(g.id)), "", "resign")
	if err != nil {
		return err
	}
	if _, err := r.router.await(g.addr[mover], r.cfg.Timeout, "receipt for the resignation", func(d *delivery) bool { return d.inReplyTo == id }); err != nil {
		return err
	}
	if _, err := r.router.await(g.addr[1-mover], r.cfg.Timeout, "news of the resignation", func(d *delivery) bool { return d.game == g.id }); err != nil {
		return err
	}
	g.resigned = true
	return nil
}

// later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// junk mixes Junk bad mails into the service's mailbox while the moves are
// played, spread over the first seconds, and returns how many it sent.
// Each junk sender is a new address junkN@localhost, so its answers can be
// counted: a welcome at most once a day per sender, nothing for bounces,
// auto-replies, lists, mail from the service itself, unreadable or
// oversized mail.
func (r *run) junk(ctx context.Context) int {
	rnd := mrand.New(mrand.NewPCG(r.cfg.Seed, 99))
	sent := 0
	for i := 0; i < r.cfg.Junk && ctx.Err() == nil; i++ {
		from := fmt.Sprintf("junk%dx%d@%s", i%junkKinds, i, domain)
		msg := junkMail(i, from, rnd)
		if err := r.subs.toService(r.hub, msg); err != nil {
			continue
		}
		sent++
		if i%100 == 99 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return sent
}

// junkKinds is how many kinds of junk there are.
const junkKinds = 8

// junkMail is the i-th bad mail: the kinds take turns.
func junkMail(i int, from string, rnd *mrand.Rand) []byte {
	hdr := fmt.Sprintf("From: <%s>\r\nTo: <%s>\r\nMessage-ID: <junk%d@junk.test>\r\nDate: %s\r\n", from, service, i, time.Now().Format(time.RFC1123Z))
	words := []string{"hello", "win", "prize", "e4", "resign", "accept", "new", "chess", "now", "free"}
	var body strings.Builder
	for range 5 + rnd.IntN(30) {
		body.WriteString(words[rnd.IntN(len(words))] + " ")
	}
	switch i % junkKinds {
	case 0: // plain junk to the bare address: a welcome, once a day
		return []byte(hdr + "Subject: offer\r\n\r\n" + body.String() + "\r\n")
	case 1: // oversized
		return []byte(hdr + "Subject: big\r\n\r\n" + strings.Repeat("x", 1<<20+100) + "\r\n")
	case 2: // malformed MIME: a multipart without its boundary, bad base64
		return []byte(hdr + "Subject: broken\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n")
	case 3: // header garbage
		return []byte("\x00\x01garbage header without colon\r\n" + hdr + "\r\n\r\nbody")
	case 4: // a bounce
		return []byte(strings.Replace(hdr, "From: <"+from+">", "From: MAILER-DAEMON <"+from+">", 1) + "Return-Path: <>\r\nSubject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\n\r\nfailed\r\n--b--\r\n")
	case 5: // an auto-reply
		return []byte(hdr + "Subject: Out of office\r\nAuto-Submitted: auto-replied\r\n\r\nI am away.\r\n")
	case 6: // a list
		return []byte(hdr + "Subject: [list] digest\r\nList-Id: <chess.lists.test>\r\nPrecedence: list\r\n\r\n" + body.String() + "\r\n")
	default: // a spoofed token: the service's token format, unknown
		tok := fmt.Sprintf("games+%x@%s", rnd.Uint64(), domain)
		return []byte(strings.Replace(hdr, "To: <"+service+">", "To: <"+tok+">", 1) + "Subject: Re: [bp-1] move\r\n\r\ne4\r\n")
	}
}
