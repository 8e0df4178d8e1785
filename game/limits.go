package game

import (
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/timing"
)

// Limits bound what one sender can make the service do, so that a mail
// cannot turn bottlepost into an amplifier: a thousand "new … vs STRANGER"
// lines must not become a thousand invitations to people who never asked
// for mail. Zero fields take the defaults (DefaultLimits), in the service's
// configuration too (config's [limits]): DefaultLimits is the one place
// they are written.
type Limits struct {
	// CommandsPerMail is how many commands of one mail are acted on; the
	// rest are named in one line of the answer and ignored.
	CommandsPerMail int
	// ChallengesPerHour and ChallengesPerDay bound the new challenges (open
	// or to a named opponent) one sender starts in any hour and any 24 hours.
	ChallengesPerHour, ChallengesPerDay int
	// InvitationsPerDay bounds the challenges one sender sends, in any 24
	// hours, to addresses that never wrote to the service: each of those
	// is a mail to a stranger.
	InvitationsPerDay int
	// OpenChallenges bounds the challenges one player has waiting for an
	// answer (open ones and those to a named opponent).
	OpenChallenges int
	// StrangersPerDay bounds, for the whole service, the mails a UTC day to
	// addresses that never wrote to it: invitations, and the answers of
	// first contact to addresses it does not know (strangers.go).
	StrangersPerDay int
}

// DefaultLimits are the limits of a service configured with none.
var DefaultLimits = Limits{CommandsPerMail: 20, ChallengesPerHour: 10, ChallengesPerDay: 30, InvitationsPerDay: 10, OpenChallenges: 10,
	StrangersPerDay: 100}

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	for _, f := range []struct{ v, def *int }{
		{&l.CommandsPerMail, &d.CommandsPerMail}, {&l.ChallengesPerHour, &d.ChallengesPerHour},
		{&l.ChallengesPerDay, &d.ChallengesPerDay}, {&l.InvitationsPerDay, &d.InvitationsPerDay},
		{&l.OpenChallenges, &d.OpenChallenges}, {&l.StrangersPerDay, &d.StrangersPerDay},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	return l
}

// MaxReplyBytes is the most any one mail the service composes may weigh,
// whatever came in: the parts quoting the sender are cut to excerpts, and a
// mail still larger is replaced by a short one saying so. A game's PGN
// attachment (final mails, pgn answers) comes on top: its size follows from
// the game, not from the mail answered, and MaxPGNBytes bounds it.
const MaxReplyBytes = 64 << 10

// MaxPGNBytes is the largest game record attached to a mail (some thousands of
// plies); a larger one is left out with a note, and bottlepost export writes it.
const MaxPGNBytes = 4 << 20

// Bounds on what an answer quotes of the mail it answers.
const (
	// maxCommandLine is the longest line read as a command; a longer one
	// is not understood (and quoted as an excerpt), so no argument an
	// answer repeats is longer.
	maxCommandLine = 200
	// excerptLen is how much of a not-understood line is quoted.
	excerptLen = 60
	// maxQuoted is how many not-understood lines, and how many parse
	// errors, one answer lists.
	maxQuoted = 10
)

// excerpt cuts a line the sender wrote to a short quotation.
func excerpt(s string) string {
	if len(s) <= excerptLen {
		return s
	}
	cut := excerptLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// quoteLines lists not-understood lines for an answer: each at most once,
// each cut to an excerpt, at most maxQuoted of them, and a count of the rest.
func quoteLines(lines []string, lg lang.Lang) []string {
	seen := map[string]bool{}
	var out []string
	more := 0
	for _, l := range lines {
		e := excerpt(l)
		if seen[e] {
			continue
		}
		seen[e] = true
		if len(out) == maxQuoted {
			more++
			continue
		}
		out = append(out, e)
	}
	if more > 0 {
		out = append(out, lg.Tr("(and %d more lines not understood)", more))
	}
	return out
}

// limitError is a request refused by one of the Limits: the answer names
// the limit once per mail, however many commands ran into it.
type limitError struct {
	setting string // the configuration key, limits.NAME
	msg     string
	text    lang.Text // the message, to write in the answer's language (in); msg when zero
}

func (e *limitError) Error() string {
	if !e.text.IsZero() {
		return e.text.String()
	}
	return e.msg
}

// in is the refusal in a language.
func (e *limitError) in(l lang.Lang) string {
	if !e.text.IsZero() {
		return e.text.In(l)
	}
	return e.msg
}

// window keeps the instants of times within the last span before now. An
// instant after now was read from a clock that ran ahead and has been set
// back since: it happened by now, and is kept as now (so it leaves the
// window a span from now, not a span after the clock reaches it).
func window(times []time.Time, now time.Time, span time.Duration) []time.Time {
	out := times[:0:0]
	for _, t := range times {
		if t.After(now) {
			t = now
		}
		if now.Sub(t) < span {
			out = append(out, t)
		}
	}
	return out
}

// challengeLimits checks the sender's limits before a new challenge is
// created; stranger says the challenged address never wrote to the service.
func (h *handling) challengeLimits(stranger bool) error {
	lim := h.s.cfg.Limits
	pm := h.pmeta
	pm.Challenges = window(pm.Challenges, h.now, timing.Day)
	pm.Invitations = window(pm.Invitations, h.now, timing.Day)
	lg := h.langOf(h.from)
	when := func(t time.Time) string {
		return timing.FormatDate(t.In(pm.location()), "Mon 2 Jan 15:04 MST", lg)
	}
	// The sorted instants of the last hour and day: the oldest one leaving
	// the window is when the limit lets one more through.
	hour := window(pm.Challenges, h.now, time.Hour)
	switch {
	case len(hour) >= lim.ChallengesPerHour:
		return &limitError{setting: "challenges_per_hour", text: lang.Msg(
			"no new challenge: you started %d in the last hour, the most this service allows (limits.challenges_per_hour); you may start another from %s",
			len(hour), when(hour[len(hour)-lim.ChallengesPerHour].Add(time.Hour)))}
	case len(pm.Challenges) >= lim.ChallengesPerDay:
		return &limitError{setting: "challenges_per_day", text: lang.Msg(
			"no new challenge: you started %d in the last 24 hours, the most this service allows (limits.challenges_per_day); you may start another from %s",
			len(pm.Challenges), when(pm.Challenges[len(pm.Challenges)-lim.ChallengesPerDay].Add(timing.Day)))}
	case stranger && len(pm.Invitations) >= lim.InvitationsPerDay:
		return &limitError{setting: "invitations_per_day", text: lang.Msg(
			"no new challenge: you invited %d people who never wrote to bottlepost in the last 24 hours, the most this service allows (limits.invitations_per_day); you may invite another from %s, and challenge players who have written to it at any time",
			len(pm.Invitations), when(pm.Invitations[len(pm.Invitations)-lim.InvitationsPerDay].Add(timing.Day)))}
	}
	waiting := 0
	for _, id := range pm.Games {
		l := h.listed(id)
		if l != nil && (l.meta.Phase == phaseChallenge || l.meta.Phase == phaseOpen) && l.seats[l.meta.Challenger].ID == h.player.ID {
			waiting++
		}
	}
	if waiting >= lim.OpenChallenges {
		return &limitError{setting: "open_challenges", text: lang.Msg(
			"no new challenge: %d of your challenges are waiting for an answer, the most this service allows (limits.open_challenges); another may start once one of them is accepted or declined",
			waiting)}
	}
	return nil
}

// countChallenge records a new challenge against the sender's limits (the
// player is saved with the game).
func (h *handling) countChallenge(stranger bool) {
	h.pmeta.Challenges = append(h.pmeta.Challenges, h.now)
	if stranger {
		h.pmeta.Invitations = append(h.pmeta.Invitations, h.now)
	}
}

// tooLong says whether a line is too long to be a command.
func tooLong(line string) bool {
	if isTournamentNew(line) {
		return len(line) > maxTournamentLine
	}
	return len(line) > maxCommandLine
}

// commandsCut is the line of an answer to a mail with more commands than
// the limit.
func commandsCut(acted, total int, lg lang.Lang) string {
	return lg.Tr("Only the first %d commands of a mail are acted on (limits.commands_per_mail); the other %d were ignored: send them in another mail.", acted, total-acted)
}

// renderBounded renders a draft into a mail of at most MaxReplyBytes (its
// attachment on top). A larger one is rendered again with its lists cut
// short (the lines quoting the sender first, then the long lists: games,
// record, report), and if it is still too large, replaced by a short mail
// saying what was asked for could not be sent.
func (r *renderer) renderBounded(d *draft) ([]byte, error) {
	data, limit, err := r.render(d)
	if err != nil || len(data) <= limit {
		return data, err
	}
	return r.shrink(d, len(data))
}

// shrink renders again a draft whose mail took size bytes, over the limit
// (renderBounded).
func (r *renderer) shrink(d *draft, size int) ([]byte, error) {
	// First the HTML board goes (the text part keeps the board): a big
	// board drawn as a table weighs some 40 KB.
	plain := *d
	plain.plainBoard = true
	data, limit, err := r.render(&plain)
	if err != nil || len(data) <= limit {
		r.s.log.Info("answer sent with the HTML board as text to stay within the size limit", "to", d.to, "kind", d.kind, "bytes", size, "now", len(data))
		return data, err
	}
	cut := plain
	cut.cutRecord = true
	cut.errors, cut.ignored, cut.notices = head(d.errors, 5, d.lang), head(d.ignored, 5, d.lang), head(d.notices, 10, d.lang)
	cut.games, cut.report = head(d.games, 100, d.lang), head(d.report, 100, d.lang)
	if n := len(d.record); n > 200 {
		cut.record = append([]string{d.tr("(the first %d entries are left out: this mail is limited to %d KB; the export has the whole record)", n-200, MaxReplyBytes>>10)}, d.record[n-200:]...)
	}
	cut.notices = append(cut.notices, d.tr("This answer was cut short: it would have been larger than %d KB.", MaxReplyBytes>>10))
	if data, limit, err = r.render(&cut); err != nil || len(data) <= limit {
		r.s.log.Warn("answer cut to stay within the size limit", "to", d.to, "kind", d.kind, "bytes", size, "now", len(data))
		return data, err
	}
	r.s.log.Warn("answer replaced: too large even when cut", "to", d.to, "kind", d.kind, "bytes", size)
	short := &draft{lang: d.lang, kind: "notice", to: d.to, viewer: d.viewer, replyTo: d.replyTo, inReplyTo: d.inReplyTo, subject: d.subject,
		notices: []string{d.tr("The answer to your mail would have been larger than %d KB, the most this service sends, so it was not sent. Ask for less in one mail.", MaxReplyBytes>>10)}}
	data, _, err = r.render(short)
	return data, err
}

// head is the first n entries of a list, and a line counting the rest; what
// is appended to it never writes into list.
func head(list []string, n int, lg lang.Lang) []string {
	if len(list) <= n {
		return slices.Clip(list)
	}
	return append(append([]string(nil), list[:n]...), lg.Tr("(and %d more)", len(list)-n))
}
