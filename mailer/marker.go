package mailer

// sentMarker marks the mails one SMTP session got accepted as sent, in the
// background while the session goes on: one commit at a time, each for the
// mails accepted while the one before ran, and no more than window waiting
// beside it. A mail accepted but not yet marked when the process dies is
// sent again (at least once): at most 2×window mails per session, plus
// the one whose acceptance the server sent as the process died
// (smtpclient.Conn.SendAll reads each mail's answers before the next);
// the recipient's client dedupes by Message-ID. A commit that fails (the disk is full) hands
// its mails, and those pending beside it, to unmarked: they were accepted,
// and must not be sent again while the process lives.
//
// It is used by one goroutine (the session's); only the commits run on
// their own.
type sentMarker struct {
	mark   func(ids []uint64) error // one commit
	window int
	// marked is told of the mails of every commit that landed.
	marked func(ms []Queued)
	// unmarked is told of the accepted mails no commit marked: those of a
	// commit that failed, and those pending when the session ended early.
	unmarked func(ms []Queued)

	count           int      // mails marked so far
	pending, flying []Queued // accepted, not yet in a commit; in the commit under way
	flight          chan error
}

// accepted notes a mail the server accepted. It starts a commit when none is
// under way; it waits for the one under way only when window mails are
// pending beside it. An error is the commit's that failed.
func (s *sentMarker) accepted(m Queued) error {
	s.pending = append(s.pending, m)
	if s.flight == nil {
		s.launch()
		return nil
	}
	var done error
	if len(s.pending) < s.window {
		select {
		case done = <-s.flight:
		default:
			return nil // the commit under way is not done: send on
		}
	} else {
		done = <-s.flight // enough is pending: wait for the commit under way
	}
	if err := s.land(done); err != nil {
		return err
	}
	s.launch()
	return nil
}

// settle waits until every accepted mail is marked: the commit under way,
// then one for what is pending.
func (s *sentMarker) settle() error {
	if s.flight != nil {
		if err := s.land(<-s.flight); err != nil {
			return err
		}
	}
	s.launch()
	if s.flight != nil {
		return s.land(<-s.flight)
	}
	return nil
}

// wait lets the commit under way land, if any, and hands what is pending
// to unmarked: for a session ending early (a commit failed), whose pending
// mails were accepted but are in no commit.
func (s *sentMarker) wait() {
	if s.flight != nil {
		s.land(<-s.flight)
	}
	if len(s.pending) > 0 && s.unmarked != nil {
		s.unmarked(s.pending)
	}
	s.pending = nil
}

// launch starts a commit for the pending mails, if any.
func (s *sentMarker) launch() {
	if len(s.pending) == 0 {
		return
	}
	s.flying, s.pending = s.pending, nil
	ids := make([]uint64, len(s.flying))
	for i, m := range s.flying {
		ids[i] = m.ID
	}
	ch := make(chan error, 1)
	go func() { ch <- s.mark(ids) }()
	s.flight = ch
}

// land takes the result of the commit under way.
func (s *sentMarker) land(err error) error {
	s.flight = nil
	if err != nil {
		if s.unmarked != nil {
			s.unmarked(s.flying)
		}
		s.flying = nil
		return err
	}
	s.count += len(s.flying)
	if s.marked != nil {
		s.marked(s.flying)
	}
	s.flying = nil
	return nil
}
