package mailer

import (
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// Mail moved out of an INBOX. The service moves every mail it handled into
// its processed folder and never empties it: a real mail server expires
// that folder (docs/deploy.md, "The processed folder"). The hub is that
// server in the embedded set-up, and go-imap's in-memory server holds every
// message's bytes, so the folder held every mail the service ever handled,
// in memory, until the process ended (a flood of 10,000 mails and twenty
// of 7 MB kept the daemon at 700 MB). The hub now keeps at most
// Hub.MovedMax bytes of moved mail per account: beyond it, the mail moved
// first is expunged, once Hub.MovedGrace has passed since its move (so a
// client that looks at the folder right after a move finds it there).
// Moved mail is never kept on disk: its file went when it left the INBOX.

// The defaults NewHub sets.
const (
	defaultMovedMax   = 32 << 20
	defaultMovedGrace = time.Minute
)

// movedMail is the mail moved out of the INBOXes, per account, oldest first.
type movedMail struct {
	mu       sync.Mutex
	accounts map[string]*movedLog
	freed    atomic.Int64 // bytes expired since the memory was last handed back
}

// movedLog is one account's moved mail and its size.
type movedLog struct {
	batches []movedBatch
	bytes   int64
}

// movedBatch is the mail one MOVE brought into a mailbox.
type movedBatch struct {
	mailbox  string
	validity uint32 // the mailbox's UIDVALIDITY: a mailbox made again under the name is another
	uids     imap.UIDSet
	bytes    int64
	at       time.Time
}

// moveMark is what the accounting of a move reads before and after it:
// the INBOX's size (what it lost is what moved: reading the destination's
// size would walk all of a growing folder at every move) and the
// destination's UIDNEXT and UIDVALIDITY.
type moveMark struct {
	inbox    int64
	next     imap.UID
	validity uint32
}

// mark reads a moveMark; ok is false when a mailbox cannot be read.
func (h *Hub) mark(name, dest string) (m moveMark, ok bool) {
	u := h.User(name)
	in, err := u.Status("INBOX", &imap.StatusOptions{Size: true})
	if err != nil || in.Size == nil {
		return m, false
	}
	st, err := u.Status(dest, &imap.StatusOptions{UIDNext: true, UIDValidity: true})
	if err != nil {
		return m, false
	}
	return moveMark{inbox: *in.Size, next: st.UIDNext, validity: st.UIDValidity}, true
}

// movedBefore reads the mark of a move out of the INBOX into dest. ok is
// false when moved mail is not expired (MovedMax < 0) or dest cannot be
// read (the move fails then). The account's lock must be held from here
// to movedAfter: nothing else changes the INBOX meanwhile.
func (h *Hub) movedBefore(name, dest string) (before moveMark, ok bool) {
	if h.MovedMax < 0 {
		return before, false
	}
	return h.mark(name, dest)
}

// movedAfter notes the mail a move brought into dest (the UIDs from
// before's UIDNEXT on, the bytes the INBOX lost) and expires what is due.
func (h *Hub) movedAfter(name, dest string, before moveMark) {
	after, ok := h.mark(name, dest)
	if !ok || after.validity != before.validity || after.next <= before.next {
		return
	}
	b := movedBatch{mailbox: dest, validity: after.validity, bytes: max(0, before.inbox-after.inbox), at: time.Now(),
		uids: imap.UIDSet{imap.UIDRange{Start: before.next, Stop: after.next - 1}}}
	h.moved.mu.Lock()
	if h.moved.accounts == nil {
		h.moved.accounts = map[string]*movedLog{}
	}
	l := h.moved.accounts[name]
	if l == nil {
		l = &movedLog{}
		h.moved.accounts[name] = l
	}
	l.batches = append(l.batches, b)
	l.bytes += b.bytes
	h.moved.mu.Unlock()
	h.expireMovedLocked(name, b.at)
}

// expireMovedLocked expunges an account's oldest moved mail while it holds
// more than MovedMax bytes of it and the oldest was moved MovedGrace ago or
// more. The account's lock must be held.
func (h *Hub) expireMovedLocked(name string, now time.Time) {
	h.moved.mu.Lock()
	l := h.moved.accounts[name]
	var due []movedBatch
	for l != nil && len(l.batches) > 0 && l.bytes > h.MovedMax && now.Sub(l.batches[0].at) >= h.MovedGrace {
		due = append(due, l.batches[0])
		l.bytes -= l.batches[0].bytes
		l.batches[0] = movedBatch{}
		l.batches = l.batches[1:]
	}
	if l != nil && len(l.batches) == 0 {
		delete(h.moved.accounts, name) // and the slice's array with it
	}
	h.moved.mu.Unlock()
	if len(due) == 0 {
		return
	}
	// One expunge per mailbox: each walks the whole mailbox, and a flood
	// moved its mail one message at a time.
	type box struct {
		name     string
		validity uint32
	}
	var order []box
	uids := map[box]imap.UIDSet{}
	bytes := map[box]int64{}
	for _, b := range due {
		k := box{b.mailbox, b.validity}
		if _, ok := uids[k]; !ok {
			order = append(order, k)
		}
		set := uids[k]
		set.AddSet(b.uids)
		uids[k] = set
		bytes[k] += b.bytes
	}
	u := h.User(name)
	for _, k := range order {
		if expungeMoved(u, k.name, k.validity, uids[k]) {
			h.moved.freed.Add(bytes[k])
			h.log.Debug("mail hub: mail moved out of the INBOX expired", "account", name, "mailbox", k.name, "bytes", bytes[k])
		}
	}
}

// releaseAfter is how many bytes of expired mail make the sweeper hand the
// memory back to the system at once (debug.FreeOSMemory) rather than when
// the runtime gets to it: the daemon's collector lets the heap grow to five
// times the live data (cmd/bottlepost/gc.go), and an idle daemon collects
// only every two minutes, so after a flood the process stayed at its peak
// for minutes after the mail was gone. A forced collection of a heap just
// emptied is short, and it comes at most once a sweep.
const releaseAfter = 64 << 20

// expungeMoved expunges moved mail, as a server's expiry does (sessions
// that have the mailbox selected are told); false when the mailbox is gone
// or is another by now (its UIDVALIDITY differs).
func expungeMoved(u *imapmemserver.User, mailbox string, validity uint32, uids imap.UIDSet) bool {
	sess := imapmemserver.NewUserSession(u)
	data, err := sess.Select(mailbox, nil)
	if err != nil {
		return false
	}
	defer sess.Close()
	if data.UIDValidity != validity {
		return false
	}
	// Silent: no FETCH answers to write (this session has no client).
	if err := sess.Store(nil, uids, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil); err != nil {
		return false
	}
	return sess.Expunge(nil, &uids) == nil
}

// sweepMoved expires moved mail whose grace ends while no move comes to do
// it (the end of a flood), until stop is closed.
func (h *Hub) sweepMoved(stop <-chan struct{}) {
	if h.MovedMax < 0 {
		return
	}
	t := time.NewTicker(min(max(h.MovedGrace/4, 10*time.Millisecond), 15*time.Second))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			h.moved.mu.Lock()
			var over []string
			for name, l := range h.moved.accounts {
				if l.bytes > h.MovedMax {
					over = append(over, name)
				}
			}
			h.moved.mu.Unlock()
			for _, name := range over {
				l := h.lock(name)
				l.Lock()
				h.expireMovedLocked(name, now)
				l.Unlock()
			}
			if h.moved.freed.Load() >= releaseAfter {
				h.moved.freed.Store(0)
				debug.FreeOSMemory()
			}
		}
	}
}
