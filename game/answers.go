package game

import (
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/timing"
)

// The sender's reply allowance (issue 35.3). The transport limits how many
// answers a sender gets an hour (limits.replies_per_hour), so that a loop
// with a mail robot, or mail forged in someone's name, cannot make the
// service a flood. But a mail a game needs is never held back by it: a
// player who waits for a "your move" that the limit withheld loses on time,
// and so does the opponent who waits for the move that was refused in
// silence. So the allowance is asked only for answers outside games (help,
// games, the welcome, settings, …: draft.needed decides, in one place), a
// sender over it gets one short notice saying so and when answers resume
// (once per window: the transport says when), and every answer withheld is
// logged at INFO with the sender and its kind (Handle).

// Allowance is the transport's answer to whether the sender of a mail may
// be answered now (Incoming.Allow).
type Allowance struct {
	// OK: the answer may be sent; it was counted.
	OK bool
	// Notice, when not OK: this is the first answer withheld since the
	// sender was last answered, so the sender is told once (the notice
	// itself is not counted).
	Notice bool
	// Resume, when not OK: when the sender may be answered again.
	Resume time.Time
}

// needed says whether a draft is a mail a game needs, never withheld by the
// reply allowance (DESIGN "Limits and mails"): the news of a move, the
// mover's receipt included (last), a move refused or not played (refused),
// the game's start and "your move" (needs, set by start), its end
// ("final"), a challenge made and an invitation; and the apology for a mail
// about a damaged game (needs). Everything else — help, games, history,
// board, settings, the welcome — counts against the allowance.
func (d *draft) needed() bool {
	if d.needs || d.last != nil || d.refused != "" {
		return true
	}
	switch d.kind {
	case "final", "challenge", "invitation":
		return d.game != nil
	}
	return false
}

// allowed asks the sender's allowance (once per mail) for an answer of kind
// outside games. When it is spent, the answer is withheld: its kind is
// noted for the log, and, with notice, the over-limit notice goes out if
// the transport says it is the first of its window.
func (h *handling) allowed(kind string, notice bool) bool {
	a := h.allow()
	if a.OK {
		return true
	}
	h.withheld = append(h.withheld, kind)
	if notice && a.Notice {
		h.overLimit = &a
	}
	return false
}

// answerAllowed decides whether the answer made of the sender's drafts
// goes out: always when one of them is needed, else when the allowance
// lets it.
func (h *handling) answerAllowed(mine []*draft) bool {
	kinds := make([]string, 0, len(mine))
	for _, d := range mine {
		if d.needed() {
			return true
		}
		if !strings.Contains(strings.Join(kinds, ","), d.kind) {
			kinds = append(kinds, d.kind)
		}
	}
	return h.allowed(strings.Join(kinds, ","), true)
}

// overLimitDraft is the one short notice to a sender whose answers are
// withheld (answerAllowed): what happened, and when answers resume.
func (h *handling) overLimitDraft() *draft {
	loc := time.UTC
	if h.pmeta != nil {
		loc = h.pmeta.location()
	}
	lg := h.langOf(h.from)
	resume := timing.FormatDate(h.overLimit.Resume.In(loc), "15:04 MST", lg)
	d := &draft{lang: lg, kind: "notice", to: h.from, inReplyTo: h.in.MessageID,
		subject: lg.Tr("bottlepost: answers paused until %s", resume)}
	if h.player != nil {
		d.replyTo = h.s.replyAddress(h.s.accountToken(h.from))
	}
	d.notice("You have had as many answers in the last hour as this service sends to one address (limits.replies_per_hour), so your mail was not answered. Answers resume at %s.", resume)
	d.notice("\nOnly answers outside your games wait (help, games, history, board and the like): your moves are played and every mail your games need — the news of a move, a move refused, your move, a game's start and end — comes as always.")
	d.notice("\nThis notice is sent once; mail until then gets no other answer.")
	return d
}
