package game

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
)

type draftKey struct {
	to   string
	game uint64
	kind string
}

// draft is a mail being assembled while commands run; it is rendered once
// all commands have run, so it shows the final state (flush, renderer).
type draft struct {
	// lang is the recipient's language, which every line of the mail is
	// written in (handling.langOf): notices are written in it as they are
	// added (tr), the templates and subject when the mail is rendered.
	lang      lang.Lang
	kind      string
	to        string
	game      *loaded
	viewer    rules.Viewer
	subject   string
	replyTo   string
	inReplyTo string

	notices, errors, ignored, commitments []string
	board, lastMoves, history, final      bool
	pgn                                   bool // attach the game's record (record.FinalPGN)
	record, report, games                 []string
	tables                                []ratingTable // the ratings command's answer
	yourSide, fromName, variantHelp       string
	result                                string
	newcomer                              bool
	// last is the report of the move the mail is about (its squares are
	// highlighted on the HTML board as the recipient may know them).
	last *rules.Report
	// refused is the text of a move refused in this mail, for the subject.
	refused string
	// plainBoard draws the HTML part's board as text, cutRecord keeps only
	// the end of a long record: a mail that would be too large is rendered
	// again with them (renderBounded).
	plainBoard, cutRecord bool
	// held are the commands a welcome quotes and holds; messageID, when
	// set, is the mail's Message-ID (a welcome's, which a reply quotes).
	held      []string
	messageID string
	// needs marks a mail a game needs that no other field shows: a game's
	// start, the apology for a damaged game (needed).
	needs bool
	// apart sends a draft to the sender of the incoming mail as a mail of
	// its own, not in the one answer: a tournament game's start mail,
	// which starts the game's thread, and the list of their games
	// (tournament.go).
	apart bool
	// said are the opponent's words the mail passes on (messages.go).
	said []saidText
}

// draft returns the draft for (to, game, kind), creating it.
func (h *handling) draft(to string, l *loaded, kind string) *draft {
	to = mailfmt.Key(to)
	var id uint64
	if l != nil {
		id = l.g.ID
	}
	k := draftKey{to, id, kind}
	if d, ok := h.drafts[k]; ok {
		return d
	}
	d := &draft{kind: kind, to: to, game: l, viewer: rules.ViewPublic, lang: h.langOf(to)}
	if to == h.from {
		d.inReplyTo = h.in.MessageID
	}
	if l != nil {
		if side := l.sideOf(to); side >= 0 {
			d.viewer = rules.Viewer(side)
			d.replyTo = h.s.replyAddress(h.s.seatToken(l.g.ID, side, l.g.Seats[side].Player))
		}
	}
	if d.replyTo == "" && h.player != nil && to == h.from {
		d.replyTo = h.s.replyAddress(h.s.accountToken(to))
	}
	h.drafts[k] = d
	h.order = append(h.order, k)
	return d
}

// tr writes a message in the draft's language (lang.Lang.Tr).
func (d *draft) tr(format string, args ...any) string { return d.lang.Tr(format, args...) }

// notice adds a notice, written in the draft's language.
func (d *draft) notice(format string, args ...any) {
	d.notices = append(d.notices, d.lang.Tr(format, args...))
}

// langOf is the language of the mails to an address: the sender's and
// each player's choice (language de|en), else the service's.
func (h *handling) langOf(addr string) lang.Lang {
	if h.langs == nil {
		h.langs = map[string]lang.Lang{}
	}
	if l, ok := h.langs[addr]; ok {
		return l
	}
	var m *playerMeta
	if addr == h.from && h.pmeta != nil {
		m = h.pmeta
	} else if p, err := h.tx.PlayerByAddress(addr); err == nil {
		m = decodePlayerMeta(p)
	}
	l := h.s.language(m)
	if addr != h.from {
		h.langs[addr] = l // the sender's may change while the mail's commands run
	}
	return l
}

// language is the language of a player's mails: their choice, else the
// service's (m may be nil: no player).
func (s *Service) language(m *playerMeta) lang.Lang {
	if m != nil && m.Lang != "" {
		return lang.Of(m.Lang)
	}
	if s.cfg.Language != "" {
		return s.cfg.Language
	}
	return lang.Default
}

// sideOf is the seat of an address in the game, or -1.
func (l *loaded) sideOf(addr string) int {
	for i, p := range l.seats {
		if p != nil && mailfmt.Key(p.Address) == addr {
			if l.meta.Phase == phaseOpen && i != l.meta.Challenger {
				continue
			}
			return i
		}
	}
	return -1
}

// empty reports whether a draft has nothing to say (the plain reply draft
// when every command answered in a mail of its own).
func (d *draft) empty() bool {
	switch d.kind {
	case "notice", "update":
		return len(d.notices) == 0 && len(d.errors) == 0 && len(d.ignored) == 0 && !d.board && len(d.commitments) == 0 && len(d.said) == 0
	}
	return false
}

// flush writes the games changed by commands that did not save them, then
// renders every draft and queues it in the outbox (renderer): the drafts to
// others one mail each, those to the sender of the incoming mail one answer
// (withheld when the sender's allowance is spent and no game needs it:
// answers.go).
// Each mail is committed with the move or not at all. It returns the number
// of mails.
func (h *handling) flush() (int, error) {
	for id := range h.dirty {
		l := h.games[id]
		if !l.g.Archived {
			if err := h.save(l); err != nil {
				return 0, err
			}
		}
	}
	r := h.s.newRenderer(h.tx, h.now, &h.clocks)
	n := 0
	var mine []*draft // the answer to the sender: one mail, however many drafts
	for _, k := range h.order {
		d := h.drafts[k]
		if d.empty() {
			continue
		}
		if k.to == h.from && !d.apart {
			mine = append(mine, d)
			continue
		}
		if err := r.queue(d); err != nil {
			return n, err
		}
		n++
	}
	if len(mine) > 0 && !h.answerAllowed(mine) {
		mine = nil
	}
	if len(mine) == 0 && h.overLimit != nil {
		mine = []*draft{h.overLimitDraft()}
	}
	if len(mine) == 0 {
		return n, nil
	}
	if err := r.queueAnswer(mine); err != nil {
		return n, err
	}
	return n + 1, nil
}
