package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Handler takes one raw message. nil means it is done with (the source
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
	MaxBytes  int64
	TLSConfig *tls.Config
	// Timeout is the longest the server may stay silent while it owes an
	// answer (connecting, logging in, a command); then the connection is
	// dropped and made anew. Default one minute. (go-imap itself waits
	// forever.)
	Timeout time.Duration
	// Backoff bounds the waits between reconnection attempts.
	MinBackoff, MaxBackoff time.Duration
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
		cfg.MaxBackoff = 5 * time.Minute
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &IMAPSource{cfg: cfg, log: log.With("source", "imap", "server", cfg.Addr), retries: map[imap.UID]retry{}}, nil
}

// Run watches the mailbox until ctx ends, reconnecting with exponential
// backoff after any failure.
func (s *IMAPSource) Run(ctx context.Context, handle Handler) error {
	backoff := s.cfg.MinBackoff
	for {
		start := time.Now()
		err := s.session(ctx, handle)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(start) > 2*s.cfg.MaxBackoff {
			backoff = s.cfg.MinBackoff // it worked for a while: start over
		}
		s.log.Warn("imap connection lost; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, s.cfg.MaxBackoff)
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
	fired atomic.Bool
}

func newWatchdog(d time.Duration, conn net.Conn) *watchdog {
	w := &watchdog{d: d}
	w.t = time.AfterFunc(d, func() { w.fired.Store(true); conn.Close() })
	return w
}

func (w *watchdog) pause()  { w.t.Stop() }
func (w *watchdog) resume() { w.t.Reset(w.d) }

// session is one connection: log in, then alternate fetching new mail and
// waiting for more, until something fails or ctx ends.
func (s *IMAPSource) session(ctx context.Context, handle Handler) (err error) {
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
		return fmt.Errorf("mailer: imap: dial: %w", err)
	}
	defer conn.Close()
	wd := newWatchdog(s.cfg.Timeout, conn)
	defer wd.pause()
	defer func() {
		if wd.fired.Load() {
			err = fmt.Errorf("mailer: imap: %s did not answer within %v: %w", s.cfg.Addr, s.cfg.Timeout, err)
		}
	}()
	c, err := s.client(conn, opts)
	if err != nil {
		return fmt.Errorf("mailer: imap: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
	}
	defer c.Close()
	// go-imap has no contexts: closing the connection unblocks any command.
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(s.cfg.Username, s.cfg.Password).Wait(); err != nil {
		return fmt.Errorf("mailer: imap: login as %s: %w", s.cfg.Username, err)
	}
	if s.cfg.Processed != "" {
		if err := c.Create(s.cfg.Processed, nil).Wait(); err != nil && !alreadyExists(err) {
			return fmt.Errorf("mailer: imap: create %s: %w", s.cfg.Processed, err)
		}
	}
	sel, err := c.Select(s.cfg.Mailbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("mailer: imap: select %s: %w", s.cfg.Mailbox, err)
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
			return err
		}
		wait := s.cfg.PollInterval
		if pending {
			wait = min(wait, s.cfg.MinBackoff) // a message failed: retry soon
		}
		if idle && !pending {
			if err := s.idle(ctx, c, wake, wd); err != nil {
				return err
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
			return fmt.Errorf("mailer: imap: noop: %w", err)
		}
	}
	return nil
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

// fetchNew handles every unseen message: its size is checked first; it is
// fetched without setting \Seen, handed over, and once handled it is flagged
// \Seen at once (so a connection lost later does not hand it over again),
// and the handled ones are then moved away together. pending reports a
// message left for retry.
func (s *IMAPSource) fetchNew(c *imapclient.Client, handle Handler, wd *watchdog) (pending bool, err error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen, imap.FlagDeleted}}, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("mailer: imap: search: %w", err)
	}
	uids := data.AllUIDs()
	if len(uids) == 0 {
		return false, s.moveHandled(c)
	}
	sizes, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return false, fmt.Errorf("mailer: imap: fetch sizes: %w", err)
	}
	now := time.Now()
	for _, m := range sizes {
		if r, ok := s.retries[m.UID]; ok && now.Before(r.next) {
			pending = true
			continue
		}
		if s.cfg.MaxBytes > 0 && m.RFC822Size > s.cfg.MaxBytes {
			s.log.Warn("message too large; not fetched", "uid", m.UID, "size", m.RFC822Size, "limit", s.cfg.MaxBytes)
			if err := s.markHandled(c, m.UID); err != nil {
				return pending, err
			}
			continue
		}
		section := &imap.FetchItemBodySection{Peek: true}
		msgs, err := c.Fetch(imap.UIDSetNum(m.UID), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return pending, fmt.Errorf("mailer: imap: fetch %d: %w", m.UID, err)
		}
		if len(msgs) == 0 {
			continue // expunged meanwhile
		}
		raw := msgs[0].FindBodySection(section)
		wd.pause()
		err = handle(raw)
		wd.resume()
		if err != nil {
			r := s.retries[m.UID]
			r.n++
			r.next = now.Add(min(s.cfg.MinBackoff<<min(r.n, 16), s.cfg.MaxBackoff))
			s.retries[m.UID] = r
			s.log.Error("message not handled; it stays for retry", "uid", m.UID, "attempt", r.n, "err", err)
			pending = true
			continue
		}
		delete(s.retries, m.UID)
		if err := s.markHandled(c, m.UID); err != nil {
			return pending, err
		}
	}
	return pending, s.moveHandled(c)
}

// markHandled flags a message \Seen and notes it for the move.
func (s *IMAPSource) markHandled(c *imapclient.Client, uid imap.UID) error {
	if err := c.Store(imap.UIDSetNum(uid), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		return fmt.Errorf("mailer: imap: flag %d seen: %w", uid, err)
	}
	if s.cfg.Processed != "" {
		s.unmoved.AddNum(uid)
	}
	return nil
}

// moveHandled moves the handled messages to the processed folder.
func (s *IMAPSource) moveHandled(c *imapclient.Client) error {
	if len(s.unmoved) == 0 {
		return nil
	}
	if _, err := c.Move(s.unmoved, s.cfg.Processed).Wait(); err != nil {
		return fmt.Errorf("mailer: imap: move to %s: %w", s.cfg.Processed, err)
	}
	s.unmoved = nil
	return nil
}
