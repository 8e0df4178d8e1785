package mailer

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Handler takes one raw message; it may be called for several messages at
// once (of different senders). nil means it is done with (the source
// marks it processed); an error means it must be offered again later (a
// system error: the store failing, say).
type Handler func(raw []byte) error

// IMAPConfig says where and how to watch a mailbox.
type IMAPConfig struct {
	Addr      string // host:port
	Security  string // "tls", "starttls" or "plain" (loopback only)
	Username  string
	Password  string
	Mailbox   string // default INBOX
	Processed string // folder handled mail is moved to; "" to only flag it \Seen
	// PollInterval is how often to look when the server has no IDLE.
	PollInterval time.Duration
	// IdleRefresh ends and renews IDLE this often (servers drop it after 30 min).
	IdleRefresh time.Duration
	// MaxBytes is the size above which a message is not fetched.
	MaxBytes int64
	// Workers is how many messages (of different senders) are handed to the
	// Handler at once; default 64. The Handler must be safe for concurrent use.
	Workers   int
	TLSConfig *tls.Config
	// Timeout is the longest the server may stay silent while it owes an
	// answer (connecting, logging in, a command); then the connection is
	// dropped and made anew. Default one minute. (go-imap itself waits
	// forever.)
	Timeout time.Duration
	// Backoff bounds the waits between reconnection attempts; default 1 s
	// to 30 s.
	MinBackoff, MaxBackoff time.Duration
	// ProbeEvery is how often a server that accepts no connection (it is
	// down: the attempt could not connect) is probed, with a bare TCP
	// connection, while the source waits to try again; the first probe
	// accepted ends the wait. So a server is found within about this long
	// of its return, however long the backoff has grown; default 1 s.
	ProbeEvery time.Duration
}

// IMAPSource watches a mailbox and hands every new message to a Handler.
type IMAPSource struct {
	cfg IMAPConfig
	log *slog.Logger
	// retries counts failures of the handler per UID, so a message that keeps
	// failing is retried with growing pauses rather than in a tight loop.
	retries map[imap.UID]retry
	// unmoved holds handled messages (already flagged \Seen) not yet moved
	// to the processed folder because the connection failed in between;
	// the next pass moves them. UIDs hold while the mailbox's UIDVALIDITY
	// does.
	unmoved     imap.UIDSet
	uidValidity uint32
}

type retry struct {
	n    int
	next time.Time
	key  string // the sender's: later mail of the sender waits for this one
}

// NewIMAPSource checks cfg and builds a source.
func NewIMAPSource(cfg IMAPConfig, log *slog.Logger) (*IMAPSource, error) {
	if cfg.Addr == "" || cfg.Username == "" {
		return nil, errors.New("mailer: imap: an address and a username are required")
	}
	switch cfg.Security {
	case "tls", "starttls", "plain":
	default:
		return nil, fmt.Errorf("mailer: imap: security %q: want tls, starttls or plain", cfg.Security)
	}
	if cfg.Mailbox == "" {
		cfg.Mailbox = "INBOX"
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Minute
	}
	if cfg.IdleRefresh <= 0 {
		cfg.IdleRefresh = 25 * time.Minute
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.ProbeEvery <= 0 {
		cfg.ProbeEvery = time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 64
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &IMAPSource{cfg: cfg, log: log.With("source", "imap", "server", cfg.Addr), retries: map[imap.UID]retry{}}, nil
}

// Run watches the mailbox until ctx ends, reconnecting after any failure.
// The waits between attempts double from MinBackoff up to MaxBackoff (with
// jitter: backoff), and
// start over after any session that logged in and selected the mailbox
// (a server restarted or reloaded is back within seconds). While the
// server accepts no connection at all (it is down), the wait is cut short
// by a probe every ProbeEvery (waitForServer): a server back after a long
// outage is found within about ProbeEvery, not up to MaxBackoff later,
// and a server that is down costs one refused connection a probe. A
// failure that
// retrying cannot mend (a refused password, an untrusted certificate, the
// wrong protocol on the port: see Server.Explain) is logged as an error
// saying which setting fixes it; an outage as a warning.
func (s *IMAPSource) Run(ctx context.Context, handle Handler) error {
	b := backoff{s.cfg.MinBackoff, s.cfg.MaxBackoff}
	failures := 0 // in a row
	srv := Server{Section: "imap", Addr: s.cfg.Addr, Security: s.cfg.Security}
	var explainer connectExplainer
	for {
		ready, err := s.session(ctx, handle)
		if ctx.Err() != nil {
			return nil
		}
		if ready {
			failures = 0 // it worked: a server that comes back is found at once
		}
		failures++
		wait := b.wait(failures)
		p := srv.Explain(err)
		if !ready { // may ask the port whether it speaks TLS
			p = explainer.explain(srv, err, min(s.cfg.Timeout, 10*time.Second))
		}
		if p != nil && p.Permanent {
			s.log.Error(p.Advice, "err", err, "retry_in", wait)
		} else {
			s.log.Warn("imap connection lost; reconnecting", "err", err, "in", wait)
		}
		if !ready && notConnected(err) {
			s.waitForServer(ctx, wait)
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// notConnected reports whether a session failed because no connection
// could be made at all (nothing listens, the host cannot be reached): the
// server is down, and probing it costs it nothing.
func notConnected(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// waitForServer waits up to wait (or until ctx ends) before the next
// attempt at a server that accepted no connection, probing it every
// ProbeEvery (less a jitter of up to a tenth: backoff) with a bare TCP
// connection, closed at once; the first probe accepted ends the wait. A
// probe that cannot connect gives up after ProbeEvery (or Timeout, if
// shorter), so a host that drops packets is probed no more often.
func (s *IMAPSource) waitForServer(ctx context.Context, wait time.Duration) {
	end := time.Now().Add(wait)
	every := backoff{s.cfg.ProbeEvery, s.cfg.ProbeEvery}
	for {
		left := time.Until(end)
		if left <= 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(every.wait(1), left)):
		}
		if !time.Now().Before(end) {
			return
		}
		conn, err := net.DialTimeout("tcp", s.cfg.Addr, min(s.cfg.ProbeEvery, s.cfg.Timeout))
		if err == nil {
			conn.Close()
			s.log.Info("imap server accepts connections again; reconnecting")
			return
		}
	}
}

// client starts the IMAP session on conn: TLS at once, after STARTTLS, or
// none. The watchdog on conn bounds the handshakes.
func (s *IMAPSource) client(conn net.Conn, opts *imapclient.Options) (*imapclient.Client, error) {
	tlsConfig := &tls.Config{}
	if s.cfg.TLSConfig != nil {
		tlsConfig = s.cfg.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName, _, _ = net.SplitHostPort(s.cfg.Addr)
	}
	switch s.cfg.Security {
	case "tls":
		if tlsConfig.NextProtos == nil {
			tlsConfig.NextProtos = []string{"imap"} // as imapclient.DialTLS does
		}
		tc := tls.Client(conn, tlsConfig)
		if err := tc.Handshake(); err != nil {
			return nil, err
		}
		return imapclient.New(tc, opts), nil
	case "starttls":
		opts.TLSConfig = tlsConfig
		return imapclient.NewStartTLS(conn, opts)
	}
	return imapclient.New(conn, opts), nil
}

// watchdog closes a connection when the server stays silent for too long
// while it owes an answer. It is paused while silence is normal (idling,
// polling) and while the handler works.
type watchdog struct {
	d     time.Duration
	t     *time.Timer
	conn  net.Conn
	fired atomic.Bool
}

func newWatchdog(d time.Duration, conn net.Conn) *watchdog {
	w := &watchdog{d: d, conn: conn}
	w.t = time.AfterFunc(d, w.fire)
	return w
}

func (w *watchdog) fire() { w.fired.Store(true); w.conn.Close() }

// bound guards one command sent while the watchdog is paused (the workers'
// flags): the connection is dropped if the answer takes longer than the
// timeout. Call the returned function when the answer came.
func (w *watchdog) bound() func() bool { return time.AfterFunc(w.d, w.fire).Stop }

func (w *watchdog) pause()  { w.t.Stop() }
func (w *watchdog) resume() { w.t.Reset(w.d) }

// session is one connection: log in, then alternate fetching new mail and
// waiting for more, until something fails or ctx ends. ready reports that
// it got as far as selecting the mailbox.
func (s *IMAPSource) session(ctx context.Context, handle Handler) (ready bool, err error) {
	wake := make(chan struct{}, 1)
	notify := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	opts := &imapclient.Options{
		TLSConfig: s.cfg.TLSConfig,
		// Called on the reader goroutine: never use the client here, only signal.
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					notify()
				}
			},
		},
	}
	conn, err := net.DialTimeout("tcp", s.cfg.Addr, s.cfg.Timeout)
	if err != nil {
		return false, fmt.Errorf("mailer: imap: dial: %w", err)
	}
	defer conn.Close()
	wd := newWatchdog(s.cfg.Timeout, conn)
	defer wd.pause()
	defer func() {
		if wd.fired.Load() {
			err = fmt.Errorf("mailer: imap: %s did not answer within %v: %w", s.cfg.Addr, s.cfg.Timeout, err)
		}
	}()
	sniff := sniffTLS(Server{Section: "imap", Addr: s.cfg.Addr, Security: s.cfg.Security}, conn, s.cfg.Timeout)
	c, err := s.client(conn, opts)
	sniff.stop()
	if err != nil {
		return false, sniff.explain(fmt.Errorf("mailer: imap: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err))
	}
	defer c.Close()
	// go-imap has no contexts: closing the connection unblocks any command.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(s.cfg.Username, s.cfg.Password).Wait(); err != nil {
		return false, fmt.Errorf("mailer: imap: login as %s: %w", s.cfg.Username, err)
	}
	if s.cfg.Processed != "" {
		if err := c.Create(s.cfg.Processed, nil).Wait(); err != nil && !alreadyExists(err) {
			return false, fmt.Errorf("mailer: imap: create %s: %w", s.cfg.Processed, err)
		}
	}
	sel, err := c.Select(s.cfg.Mailbox, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("mailer: imap: select %s: %w", s.cfg.Mailbox, err)
	}
	if sel.UIDValidity != s.uidValidity { // the UIDs remembered mean nothing now
		s.uidValidity, s.unmoved = sel.UIDValidity, nil
		clear(s.retries)
	}
	idle := c.Caps().Has(imap.CapIdle)
	s.log.Info("imap connected", "mailbox", s.cfg.Mailbox, "idle", idle)
	for ctx.Err() == nil {
		pending, err := s.fetchNew(c, handle, wd)
		if err != nil {
			return true, err
		}
		wait := s.cfg.PollInterval
		if pending {
			wait = min(wait, s.cfg.MinBackoff) // a message failed: retry soon
		}
		if idle && !pending {
			if err := s.idle(ctx, c, wake, wd); err != nil {
				return true, err
			}
			continue
		}
		wd.pause()
		select {
		case <-ctx.Done():
		case <-wake:
		case <-time.After(wait):
		}
		wd.resume()
		if err := c.Noop().Wait(); err != nil && ctx.Err() == nil {
			return true, fmt.Errorf("mailer: imap: noop: %w", err)
		}
	}
	return true, nil
}

func alreadyExists(err error) bool {
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists {
		return true
	}
	return strings.Contains(strings.ToLower(err.Error()), "exists")
}

// idle waits in IDLE for new mail, ctx, or the refresh interval.
func (s *IMAPSource) idle(ctx context.Context, c *imapclient.Client, wake chan struct{}, wd *watchdog) error {
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("mailer: imap: idle: %w", err)
	}
	wd.pause()
	select {
	case <-ctx.Done():
	case <-wake:
	case <-time.After(s.cfg.IdleRefresh):
	case <-c.Closed():
	}
	wd.resume()
	if err := cmd.Close(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mailer: imap: end idle: %w", err)
	}
	if err := cmd.Wait(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("mailer: imap: idle: %w", err)
	}
	return nil
}

// fetchNew handles every unseen message. Sizes are checked first; the
// bodies are fetched without setting \Seen, fetchChunk messages to a
// command, and handed to the workers as they arrive (see pipeline), so
// that the next chunk is on its way while the last is handled. Handled
// messages are flagged \Seen and moved in batches as they come (see
// seenMarker); what an earlier session flagged but could not move, and
// oversized mail, is moved at the end. pending reports a message left for
// retry.
func (s *IMAPSource) fetchNew(c *imapclient.Client, handle Handler, wd *watchdog) (pending bool, err error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen, imap.FlagDeleted}}, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("mailer: imap: search: %w", err)
	}
	uids := data.AllUIDs()
	// A message waiting for a retry that is gone (deleted, or read by
	// someone else) no longer holds its sender's later mail back.
	present := make(map[imap.UID]bool, len(uids))
	for _, u := range uids {
		present[u] = true
	}
	for u := range s.retries {
		if !present[u] {
			delete(s.retries, u)
		}
	}
	if len(uids) == 0 {
		return false, s.moveHandled(c)
	}
	sizes, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return false, fmt.Errorf("mailer: imap: fetch sizes: %w", err)
	}
	slices.SortFunc(sizes, func(a, b *imapclient.FetchMessageBuffer) int { return cmp.Compare(a.UID, b.UID) })
	now := time.Now()
	var chunks [][]imap.UID
	var todo []imap.UID
	var oversized imap.UIDSet
	chunkBytes := int64(0)
	for _, m := range sizes {
		if r, ok := s.retries[m.UID]; ok && now.Before(r.next) {
			pending = true
			continue
		}
		if s.cfg.MaxBytes > 0 && m.RFC822Size > s.cfg.MaxBytes {
			s.log.Warn("message too large; not fetched", "uid", m.UID, "size", m.RFC822Size, "limit", s.cfg.MaxBytes)
			oversized.AddNum(m.UID)
			continue
		}
		if len(todo) == fetchChunk || (len(todo) > 0 && chunkBytes+m.RFC822Size > fetchChunkBytes) {
			chunks = append(chunks, todo)
			todo, chunkBytes = nil, 0
		}
		todo = append(todo, m.UID)
		chunkBytes += m.RFC822Size
	}
	if len(todo) > 0 {
		chunks = append(chunks, todo)
	}
	if err := s.markHandled(c, oversized); err != nil {
		return pending, err
	}
	if len(chunks) > 0 {
		p, err := s.fetchAndHandle(c, chunks, handle, wd, now)
		pending = pending || p
		if err != nil {
			return pending, err
		}
	}
	return pending, s.moveHandled(c)
}

// fetchChunk is at most fetchChunk messages a FETCH brings, and about the
// most bytes (a single bigger message still comes alone).
// The byte bound keeps a chunk's transfer well within the timeout on a slow
// link (the watchdog bounds each command as a whole): 1 MiB in a minute is
// 17 KB/s.
const (
	fetchChunk      = 64
	fetchChunkBytes = 1 << 20
)

// fetchAndHandle fetches the chunks' bodies, one command each, and feeds
// them to a pipeline of workers. Handled messages are flagged \Seen and
// moved to the processed folder in batches (see seenMarker), on the one
// connection beside the fetches. When a command fails the connection is
// taken for broken: no further message is handed over, and the error ends
// the session.
func (s *IMAPSource) fetchAndHandle(c *imapclient.Client, chunks [][]imap.UID, handle Handler, wd *watchdog, now time.Time) (pending bool, err error) {
	wd.pause() // the handler may take its time; each command has its own bound
	defer wd.resume()
	mk := newSeenMarker(c, s.cfg.Processed, wd)
	p := newPipeline(s.cfg.Workers, handle, mk.add)
	for _, r := range s.retries {
		p.block(r.key) // a sender whose earlier mail waits for a retry: the rest waits too
	}
	var fetchErr error
	for _, uids := range chunks {
		if p.isBroken() {
			break
		}
		stop := wd.bound()
		msgs, err := fetchBodies(c, uids)
		stop()
		if err != nil {
			fetchErr = fmt.Errorf("mailer: imap: fetch %d messages: %w", len(uids), err)
			break
		}
		for _, m := range msgs {
			_, retried := s.retries[m.uid]
			p.add(uint32(m.uid), m.raw, retried)
		}
	}
	results, broken := p.finish()
	unmoved, markErr := mk.close()
	s.unmoved = append(s.unmoved, unmoved...)
	for id, err := range results {
		uid := imap.UID(id)
		switch {
		case err == errNotHandled:
			pending = true
		case err != nil:
			r := s.retries[uid]
			r.key = p.keys[id]
			r.n++
			r.next = now.Add(backoff{s.cfg.MinBackoff, s.cfg.MaxBackoff}.wait(r.n + 1)) // twice MinBackoff first
			s.retries[uid] = r
			s.log.Error("message not handled; it stays for retry", "uid", uid, "attempt", r.n, "err", err)
			pending = true
		default:
			delete(s.retries, uid)
		}
	}
	return pending, errors.Join(fetchErr, broken, markErr)
}

// fetched is one message's body as a FETCH brought it.
type fetched struct {
	uid imap.UID
	raw []byte
}

// fetchBodies fetches the messages' bodies (BODY.PEEK[], nothing marked
// read), in UID order; messages expunged meanwhile are missing.
//
// It reads the response itself rather than with FetchCommand.Collect: when
// the link breaks inside a body's literal, the literal ends early as if
// complete, go-imap's reader goroutine goes on decoding the connection, and
// Collect (through Next's discard) reads the rest of the same literal: a
// data race on the connection's buffer. Here a literal is read once and its
// length checked; if it is short, nothing of the command is touched again
// and the client is closed, which ends its reader goroutine.
func fetchBodies(c *imapclient.Client, uids []imap.UID) ([]fetched, error) {
	section := &imap.FetchItemBodySection{Peek: true}
	cmd := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}})
	var out []fetched
	for {
		msg := cmd.Next()
		if msg == nil {
			break
		}
		var f fetched
		for item := msg.Next(); item != nil; item = msg.Next() {
			switch it := item.(type) {
			case imapclient.FetchItemDataUID:
				f.uid = it.UID
			case imapclient.FetchItemDataBodySection:
				if it.Literal == nil {
					continue
				}
				// A link that breaks inside the literal ends it early with
				// io.EOF, which ReadAll takes for the end: the size tells.
				raw, err := io.ReadAll(it.Literal)
				if err == nil && int64(len(raw)) != it.Literal.Size() {
					err = fmt.Errorf("%d of %d bytes: %w", len(raw), it.Literal.Size(), io.ErrUnexpectedEOF)
				}
				if err != nil {
					c.Close()
					return nil, fmt.Errorf("reading message %d: %w", f.uid, err)
				}
				f.raw = raw
			}
		}
		if f.uid != 0 && f.raw != nil {
			out = append(out, f)
		}
	}
	if err := cmd.Close(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b fetched) int { return cmp.Compare(a.uid, b.uid) })
	return out, nil
}

// seenMarker flags handled messages \Seen and moves them to the processed
// folder in batches: one UID STORE (and one UID MOVE) for every message
// handled while the batch before was on its way, so that a server like
// Dovecot updates its index once per batch instead of once per message.
// The flag comes first so that a message whose move fails is not handed
// over again; such messages are returned by close for a later move. When a
// command fails the connection counts as broken: add reports the error.
type seenMarker struct {
	c         *imapclient.Client
	processed string
	wd        *watchdog

	mu      sync.Mutex
	wake    *sync.Cond
	queued  imap.UIDSet // handled, waiting for the next batch
	closing bool
	err     error
	unmoved imap.UIDSet // handled, maybe flagged, not moved: a batch that failed
	done    chan struct{}
}

func newSeenMarker(c *imapclient.Client, processed string, wd *watchdog) *seenMarker {
	m := &seenMarker{c: c, processed: processed, wd: wd, done: make(chan struct{})}
	m.wake = sync.NewCond(&m.mu)
	go m.run()
	return m
}

// add queues a handled message; it fails once a batch has failed.
func (m *seenMarker) add(id uint32) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.queued.AddNum(imap.UID(id))
	m.wake.Signal()
	return nil
}

func (m *seenMarker) run() {
	defer close(m.done)
	m.mu.Lock()
	defer m.mu.Unlock()
	for {
		for len(m.queued) == 0 && !m.closing {
			m.wake.Wait()
		}
		if len(m.queued) == 0 || m.err != nil {
			return
		}
		batch := m.queued
		m.queued = nil
		m.mu.Unlock()
		err := m.mark(batch)
		m.mu.Lock()
		if err != nil && m.processed != "" {
			// The next session moves them. Also when the flag failed: a
			// STORE whose answer was lost to a broken link may have been
			// applied, and a message flagged \Seen is never found again
			// by the search for unseen mail, so it would stay in the
			// mailbox for good. Every message of the batch was handled,
			// so moving it is right either way; one the STORE did not
			// reach is also offered again, and recognised by its
			// Message-ID.
			m.unmoved = append(m.unmoved, batch...)
		}
		if err != nil {
			m.err = err
			return
		}
	}
}

// mark flags one batch \Seen and moves it.
func (m *seenMarker) mark(uids imap.UIDSet) error {
	defer m.wd.bound()()
	store := m.c.Store(uids, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil)
	var move *imapclient.MoveCommand
	if m.processed != "" {
		move = m.c.Move(uids, m.processed) // pipelined behind the STORE
	}
	if err := store.Close(); err != nil {
		if move != nil {
			move.Wait()
		}
		return fmt.Errorf("mailer: imap: flag %v seen: %w", uids, err)
	}
	if move != nil {
		if _, err := move.Wait(); err != nil {
			return fmt.Errorf("mailer: imap: move %v to %s: %w", uids, m.processed, err)
		}
	}
	return nil
}

// close waits for the batches under way and returns the messages of a
// batch that failed (handled, perhaps flagged, not moved), and the error
// that broke the marking, if any. Messages
// queued but not flagged when a batch failed are offered again by the next
// session (the service recognises their Message-IDs).
func (m *seenMarker) close() (unmoved imap.UIDSet, err error) {
	m.mu.Lock()
	m.closing = true
	m.wake.Signal()
	m.mu.Unlock()
	<-m.done
	return m.unmoved, m.err
}

// markHandled flags messages \Seen and notes them for the move.
func (s *IMAPSource) markHandled(c *imapclient.Client, uids imap.UIDSet) error {
	if len(uids) == 0 {
		return nil
	}
	if err := c.Store(uids, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		return fmt.Errorf("mailer: imap: flag %v seen: %w", uids, err)
	}
	if s.cfg.Processed != "" {
		s.unmoved = append(s.unmoved, uids...)
	}
	return nil
}

// moveHandled moves the handled messages to the processed folder: those
// of them still in the mailbox (a batch that failed may have been moved
// after all, or moved since by this session when offered again; and a
// UID MOVE that matches nothing breaks some servers' answer, go-imap's
// among them). A move the server refuses (NO) is logged and not tried
// again: the messages were handled, and retrying would end every session.
func (s *IMAPSource) moveHandled(c *imapclient.Client) error {
	if len(s.unmoved) == 0 || s.cfg.Processed == "" {
		s.unmoved = nil
		return nil
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{s.unmoved}}, nil).Wait()
	if err != nil {
		return fmt.Errorf("mailer: imap: search %v: %w", s.unmoved, err)
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		s.unmoved = nil
		return nil
	}
	if _, err := c.Move(imap.UIDSetNum(uids...), s.cfg.Processed).Wait(); err != nil {
		var ie *imap.Error
		if !errors.As(err, &ie) {
			return fmt.Errorf("mailer: imap: move to %s: %w", s.cfg.Processed, err)
		}
		s.log.Warn("handled mail could not be moved; it stays in the mailbox", "uids", imap.UIDSetNum(uids...).String(),
			"folder", s.cfg.Processed, "err", err)
	}
	s.unmoved = nil
	return nil
}
