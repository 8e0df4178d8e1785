package game

// maxObservers bounds the mails one move can cause.
const maxObservers = 20

func (h *handling) observe(c Command) error {
	l, err := h.game(c.Game)
	if err != nil {
		return err
	}
	at := -1
	for i, o := range l.meta.Observers {
		if o == h.from {
			at = i
		}
	}
	if c.Arg == "off" {
		if at < 0 {
			return userf("you do not observe game %d", c.Game)
		}
		l.meta.Observers = append(l.meta.Observers[:at], l.meta.Observers[at+1:]...)
		h.touch(l)
		d := h.draft(h.from, nil, "notice")
		d.notice("You no longer observe game %d.", c.Game)
		return nil
	}
	switch {
	case l.side(h.player.ID) >= 0:
		return userf("you play in game %d; you get its mail already", c.Game)
	case l.meta.Phase != phasePlay:
		// Challenges are private, and an ended game has nothing more to send.
		return userf("game %d is not being played", c.Game)
	case at >= 0:
		return userf("you already observe game %d", c.Game)
	case len(l.meta.Observers) >= maxObservers:
		return userf("game %d has the most observers it takes (%d)", c.Game, maxObservers)
	}
	l.meta.Observers = append(l.meta.Observers, h.from)
	h.touch(l)
	d := h.draft(h.from, l, "update")
	d.notice("You now observe game %[1]d. You will get the board after every move, showing only what both players may know. Write observe %[1]d off to stop.", c.Game)
	d.board = true
	return nil
}
