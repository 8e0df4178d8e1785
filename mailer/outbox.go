package mailer

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// Outbox drains the outbox (its Queue) through a Sender. A mail leaves the
// outbox only once the server accepted it. Each attempt is recorded in the
// Queue before the mail is sent, with the next try as if it failed (see
// Queue.Record); a mail the server refuses is retried with doubling waits
// (backoff), and after MaxAttempts kept (marked given up) and logged. A server that cannot be reached, or refuses the session
// itself (a wrong password, a certificate), is no verdict on the mails:
// they stay due and untouched, Drain returns an *Unreachable, and Run
// probes the server until it answers (see Run).
type Outbox struct {
	Queue       Queue
	Sender      *smtpclient.Sender
	Log         *slog.Logger
	Now         func() time.Time
	MaxAttempts int
	Backoff     time.Duration // first retry wait
	Ceiling     time.Duration // longest retry wait
	// Connections is how many SMTP sessions send at once (default 1).
	// Sessions are kept open between drains (see IdleKeep).
	Connections int
	// IdleKeep is how long a session stays open with nothing to send
	// (default 30 s), so that the next mail goes out without a new
	// connection, TLS handshake and AUTH; Run closes sessions idle longer,
	// and Close closes them all. A session idle for a second or more is
	// asked (NOOP) whether it is still alive before it is used again.
	IdleKeep time.Duration
	// Probe bounds Run's waits while the server is unreachable: the first
	// probe after ProbeMin (default 1 s), doubling up to ProbeMax (10 s); a
	// server that refuses the session (a permanent problem) is tried again
	// at most every ProbePermanent (5 min).
	ProbeMin, ProbeMax, ProbePermanent time.Duration
	// Delivered, if set, is told of every accepted mail once it is marked
	// sent (tests, metrics); with several Connections it is called from
	// several goroutines. A mail marked late (see unmarked) comes without
	// its Data.
	Delivered func(m Queued)

	heldMu sync.Mutex
	// unmarked are the mails the server accepted that the Queue could not
	// mark sent (MarkSent failed: the disk is full, say), without their
	// Data: they are never sent again while held here, and each Drain first
	// retries marking them, sending nothing else until that succeeds. At
	// most unmarkedMax; see there.
	unmarked map[uint64]Queued

	sessMu sync.Mutex
	idle   []idleSession // open sessions nobody uses, the most recently used last
}

// idleSession is an open session waiting for mail, and since when.
type idleSession struct {
	c     *smtpclient.Conn
	since time.Time
}

// unmarkedMax bounds Outbox.unmarked. As Drain sends nothing while mails
// are held there, the hold never outgrows what one round of sessions
// accepts before their commit fails: at most Connections × (2×markWindow +
// 1) mails. Past the bound (more than 124 Connections) the mails not held
// are logged and sent again at the next Drain, as after a crash: at least
// once.
const unmarkedMax = 4096

// givenUp is how far away the next try of a mail given up is put: it stays
// in the store for the operator, but is not retried.
const givenUp = 100 * 365 * 24 * time.Hour

// Drain sends every mail that is due, in batches, until none is left or
// sending fails; it returns how many accepted mails it marked sent (those
// held unmarked by an earlier Drain included). Each batch is shared
// among Connections sessions by recipient, so one recipient's mail goes out
// in order on one session.
func (o *Outbox) Drain() (int, error) {
	sent, err := o.markUnmarked()
	if err != nil {
		return sent, err
	}
	conns := max(o.Connections, 1)
	for {
		now := o.Now()
		limit := 100 * conns
		// Mails held unmarked come first in Due's answer as often as not:
		// ask for that many more, so they do not hide the rest.
		batch, err := o.Queue.Due(now, limit+o.heldCount())
		if err != nil {
			return sent, err
		}
		batch = o.notHeld(batch)
		if len(batch) == 0 {
			return sent, nil
		}
		batch = batch[:min(len(batch), limit)]
		parts := make([][]Queued, conns)
		for _, m := range batch {
			h := fnv.New32a()
			h.Write([]byte(strings.Join(m.To, ",")))
			k := int(h.Sum32() % uint32(conns))
			parts[k] = append(parts[k], m)
		}
		var wg sync.WaitGroup
		counts := make([]int, conns)
		errs := make([]error, conns)
		for k, part := range parts {
			if len(part) == 0 {
				continue
			}
			wg.Go(func() { counts[k], errs[k] = o.send(part) })
		}
		wg.Wait()
		for k := range parts {
			sent += counts[k]
		}
		if err := errors.Join(errs...); err != nil {
			return sent, err
		}
	}
}

// send submits mails on one session (an open one if there is, see
// IdleKeep) and marks the accepted ones sent; it returns how many were
// accepted.
func (o *Outbox) send(batch []Queued) (sent int, err error) {
	conn, reused, err := o.session()
	if err != nil {
		// The server is unreachable or refuses the session: the mails wait,
		// untouched (neither an attempt nor a later next try); Run probes.
		return sent, &Unreachable{Err: err}
	}
	// Each mail's attempt is counted before it is sent: a crash while the
	// session sends leaves it counted and waiting its turn. What cannot be
	// recorded is not sent.
	tries, err := o.begin(batch)
	if err != nil {
		o.release(conn)
		return sent, err
	}
	mk := &sentMarker{mark: o.Queue.MarkSent, window: markWindow, unmarked: o.holdUnmarked}
	if o.Delivered != nil {
		mk.marked = func(ms []Queued) {
			for _, m := range ms {
				o.Delivered(m)
			}
		}
	}
	// On an early return what was accepted is still marked, or held
	// unmarked; sent counts what the last commit marked too.
	defer func() { mk.wait(); sent = mk.count }()
	out := make([]smtpclient.Mail, len(batch))
	for i, m := range batch {
		out[i] = smtpclient.Mail{From: m.From, To: m.To, Data: m.Data}
	}
	next := 0         // the first mail the server has not answered
	var stopped error // the error of ours (the Queue's) that stopped the sending
	for {
		from, replies := next, conn.Replies()
		// SendAll stops at the first error of ours; the mails it told of
		// before are marked or held like any other.
		err := conn.SendAll(out[from:], func(i int, err error) error {
			k := from + i
			next = k + 1
			var e error
			if err != nil { // the server refused this mail
				if e = mk.settle(); e == nil {
					e = o.fail(batch[k], tries[k], err, true)
				}
			} else {
				e = mk.accepted(batch[k])
			}
			stopped = e
			return e
		})
		if err == nil {
			break
		}
		conn.Close()
		if stopped != nil {
			return mk.count, errors.Join(stopped, o.giveBack(batch[next:]))
		}
		var ne net.Error
		if reused && next == from && conn.Replies() == replies && !(errors.As(err, &ne) && ne.Timeout()) {
			// A kept session the server had closed meanwhile (it failed
			// before the server said anything, and not by a timeout, which
			// a slow but live server would cause): a new one takes over
			// the same attempt; if none can be had, the mails are given
			// back their count, untouched.
			reused = false
			if conn, err = o.Sender.Dial(); err != nil {
				return mk.count, errors.Join(&Unreachable{Err: err}, o.giveBack(batch[next:]))
			}
			continue
		}
		// The connection broke: the mail under way keeps its attempt, with
		// the reason (never given up for it); the others, never reached,
		// are given back their count and wait for the next drain.
		if merr := mk.settle(); merr != nil {
			return mk.count, errors.Join(merr, o.giveBack(batch[min(next+1, len(batch)):]))
		}
		if next < len(batch) {
			if ferr := o.fail(batch[next], tries[next], err, false); ferr != nil {
				return mk.count, errors.Join(ferr, o.giveBack(batch[next+1:]))
			}
			return mk.count, errors.Join(err, o.giveBack(batch[next+1:]))
		}
		return mk.count, err
	}
	o.release(conn)
	err = mk.settle()
	return mk.count, err
}

// session takes an open session, most recently used first, or dials a new
// one; reused reports the former. A session idle for a second or more is
// asked whether it is alive (NOOP), and closed if not.
func (o *Outbox) session() (c *smtpclient.Conn, reused bool, err error) {
	for {
		o.sessMu.Lock()
		n := len(o.idle)
		if n == 0 {
			o.sessMu.Unlock()
			break
		}
		s := o.idle[n-1]
		o.idle = o.idle[:n-1]
		o.sessMu.Unlock()
		if time.Since(s.since) < time.Second || s.c.Noop() == nil {
			return s.c, true, nil
		}
		s.c.Close()
	}
	c, err = o.Sender.Dial()
	return c, false, err
}

// release keeps a session open for the next mail, at most Connections of
// them; a broken one is closed.
func (o *Outbox) release(c *smtpclient.Conn) {
	if c.Broken() {
		c.Close()
		return
	}
	o.sessMu.Lock()
	o.idle = append(o.idle, idleSession{c: c, since: time.Now()})
	var surplus []idleSession
	if extra := len(o.idle) - max(o.Connections, 1); extra > 0 {
		surplus = slices.Clone(o.idle[:extra])
		o.idle = slices.Delete(o.idle, 0, extra)
	}
	o.sessMu.Unlock()
	for _, s := range surplus {
		s.c.Close()
	}
}

// closeIdle ends (QUIT) the open sessions idle for at least d, and returns
// how many are left open.
func (o *Outbox) closeIdle(d time.Duration) int {
	o.sessMu.Lock()
	var old []idleSession
	o.idle = slices.DeleteFunc(o.idle, func(s idleSession) bool {
		if time.Since(s.since) >= d {
			old = append(old, s)
			return true
		}
		return false
	})
	left := len(o.idle)
	o.sessMu.Unlock()
	// Each QUIT may wait up to 5 s for a silent server: side by side, so
	// closing never takes longer than one of them.
	var wg sync.WaitGroup
	for _, s := range old {
		wg.Go(func() { s.c.Close() })
	}
	wg.Wait()
	return left
}

// Close ends every open session; the Outbox may still be used (it opens
// new ones).
func (o *Outbox) Close() { o.closeIdle(0) }

func (o *Outbox) idleKeep() time.Duration { return cmp.Or(o.IdleKeep, 30*time.Second) }

// holdUnmarked keeps accepted mails the Queue could not mark sent (see
// Outbox.unmarked).
func (o *Outbox) holdUnmarked(ms []Queued) {
	o.heldMu.Lock()
	defer o.heldMu.Unlock()
	if o.unmarked == nil {
		o.unmarked = map[uint64]Queued{}
	}
	for _, m := range ms {
		if len(o.unmarked) >= unmarkedMax {
			o.Log.Error("outgoing mail accepted but neither marked sent nor held; it will be sent again",
				"mail", m.ID, "to", m.To, "held", len(o.unmarked))
			continue
		}
		m.Data = nil
		o.unmarked[m.ID] = m
	}
}

// markUnmarked retries marking sent, in one commit, the accepted mails
// held unmarked; it returns how many it marked. On success they leave the
// hold (and Delivered is told of them); on failure they stay held, and
// the error says so.
func (o *Outbox) markUnmarked() (int, error) {
	o.heldMu.Lock()
	ms := make([]Queued, 0, len(o.unmarked))
	for _, m := range o.unmarked {
		ms = append(ms, m)
	}
	o.heldMu.Unlock()
	if len(ms) == 0 {
		return 0, nil
	}
	slices.SortFunc(ms, func(a, b Queued) int { return cmp.Compare(a.ID, b.ID) })
	ids := make([]uint64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	if err := o.Queue.MarkSent(ids); err != nil {
		return 0, fmt.Errorf("mailer: outbox: %d accepted mails still not marked sent; nothing else is sent until they are: %w", len(ids), err)
	}
	o.heldMu.Lock()
	for _, id := range ids {
		delete(o.unmarked, id)
	}
	o.heldMu.Unlock()
	o.Log.Info("accepted mails marked sent at last", "mails", len(ids))
	if o.Delivered != nil {
		for _, m := range ms {
			o.Delivered(m)
		}
	}
	return len(ids), nil
}

// markWindow bounds the accepted mails waiting to be marked sent beside
// the commit under way (sentMarker): with it and the one mail whose
// answer a session may be waiting for (smtpclient.Conn.SendAll), how many
// mails a crash can send twice: 2 × 16 + 1 per session.
const markWindow = 16

// begin records an attempt for each mail of batch before it is sent (see
// Queue.Record): its count, and its next try as if it failed. It returns
// what it recorded, mail by mail.
func (o *Outbox) begin(batch []Queued) ([]Attempt, error) {
	now := o.Now()
	as := make([]Attempt, len(batch))
	for i, m := range batch {
		n := m.Attempts + 1
		as[i] = Attempt{ID: m.ID, Attempts: n, Next: now.Add(backoff{o.Backoff, o.Ceiling}.wait(n))}
	}
	return as, o.Queue.Record(as)
}

// giveBack records for mails a session never reached the count and next
// try they had before begin.
func (o *Outbox) giveBack(ms []Queued) error {
	if len(ms) == 0 {
		return nil
	}
	as := make([]Attempt, len(ms))
	for i, m := range ms {
		as[i] = Attempt{ID: m.ID, Attempts: m.Attempts, Next: m.NextTry}
	}
	return o.Queue.Record(as)
}

// fail records why an attempt at m failed (a, recorded by begin): the reason,
// and the next try begin set. Only refusals of the mail itself (mayGiveUp)
// can end in giving it up after MaxAttempts. When the Queue cannot record
// it (the disk is full, say), the mail keeps the next try begin recorded:
// it is not tried, nor logged, again before that.
func (o *Outbox) fail(m Queued, a Attempt, err error, mayGiveUp bool) error {
	now := o.Now()
	a.Reason = err.Error()
	if mayGiveUp && a.Attempts >= o.MaxAttempts {
		a.Next = now.Add(givenUp)
		a.Reason = "given up: " + a.Reason
		o.Log.Error("outgoing mail given up", "mail", a.ID, "to", m.To, "attempts", a.Attempts, "err", err)
	} else {
		o.Log.Warn("outgoing mail not accepted; will retry", "mail", a.ID, "to", m.To, "attempt", a.Attempts, "in", a.Next.Sub(now), "err", err)
	}
	return o.Queue.Record([]Attempt{a})
}

// heldCount is how many accepted mails are held unmarked.
func (o *Outbox) heldCount() int {
	o.heldMu.Lock()
	defer o.heldMu.Unlock()
	return len(o.unmarked)
}

// notHeld drops from batch the mails accepted but held unmarked.
func (o *Outbox) notHeld(batch []Queued) []Queued {
	o.heldMu.Lock()
	defer o.heldMu.Unlock()
	if len(o.unmarked) == 0 {
		return batch
	}
	return slices.DeleteFunc(batch, func(m Queued) bool {
		_, ok := o.unmarked[m.ID]
		return ok
	})
}

// Unreachable is Drain's error when no session could be opened: the
// server is down, or refuses the session (see Server.Explain). No mail was
// touched.
type Unreachable struct{ Err error }

func (u *Unreachable) Error() string { return u.Err.Error() }
func (u *Unreachable) Unwrap() error { return u.Err }

// Run drains the outbox whenever wake fires, and every interval, until ctx
// ends; then it closes the sessions kept open (Close) and returns, without
// a drain of its own: a caller that wants the mail queued meanwhile sent
// drains once more after Run returned (the daemon does, on its way out).
//
// When the server cannot be reached, queued mail waits and Run probes it
// with a bare TCP connection (Sender.Reachable) after ProbeMin, doubling to
// ProbeMax (with jitter: backoff), ignoring wakes meanwhile: the queue goes
// out within seconds of the server's return without hammering a server
// that is down. A server that answers but refuses the session is logged as
// an error saying which setting fixes it, and tried again with waits
// doubling to ProbePermanent.
func (o *Outbox) Run(ctx context.Context, wake <-chan struct{}, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	probeMin, probeMax, probePermanent := cmp.Or(o.ProbeMin, time.Second), cmp.Or(o.ProbeMax, 10*time.Second), cmp.Or(o.ProbePermanent, 5*time.Minute)
	var retry time.Duration // the wait before the next try while the server is unreachable
	failures := 0           // tries that found it unreachable, in a row
	permanent := false
	var explainer connectExplainer
	for {
		if retry == 0 || permanent || o.Sender.Reachable() {
			_, err := o.Drain()
			var down *Unreachable
			switch {
			case ctx.Err() != nil:
			case errors.As(err, &down):
				p := explainer.explain(smtpServer(o.Sender.Config()), down.Err, min(o.Sender.Config().Timeout, 10*time.Second))
				permanent = p.Permanent
				ceiling := probeMax
				if permanent {
					ceiling = probePermanent
				}
				failures++
				retry = backoff{probeMin, ceiling}.wait(failures)
				if permanent {
					o.Log.Error(p.Advice, "err", down.Err, "retry_in", retry)
				} else {
					o.Log.Warn("smtp server unreachable; outgoing mail waits", "err", down.Err, "probe_in", retry)
				}
			default:
				if retry > 0 {
					o.Log.Info("smtp server reachable again; outgoing mail sent")
				}
				retry, failures, permanent = 0, 0, false
				if err != nil {
					o.Log.Warn("outbox", "err", err)
				}
			}
		} else {
			failures++
			retry = backoff{probeMin, probeMax}.wait(failures)
		}
		if retry > 0 {
			select {
			case <-ctx.Done():
				o.Close()
				return
			case <-time.After(retry):
			}
			continue
		}
	wait:
		for {
			var idleEnd <-chan time.Time // sessions kept open are closed when idle long enough
			if o.closeIdle(o.idleKeep()) > 0 {
				idleEnd = time.After(o.idleKeep())
			}
			select {
			case <-ctx.Done():
				o.Close()
				return
			case <-wake:
				break wait
			case <-t.C:
				break wait
			case <-idleEnd:
			}
		}
	}
}
